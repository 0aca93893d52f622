import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { Writable } from 'node:stream';
import pinoPretty from 'pino-pretty';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

/**
 * Structured logs; anything that could carry a secret is redacted wherever it appears. `pretty`
 * writes one readable line per entry (development); `json` is for machines (production); a
 * destination stream gets JSON (benches send info logs nowhere).
 */
export function createLogger(
  level: string,
  base: Record<string, unknown> = {},
  format: LogFormat | DestinationStream = 'json',
): Logger {
  const options = {
    level,
    base: { service: 'wagers', ...base },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.token',
        '*.password',
        '*.authToken',
        '*.connectionString',
        'token',
        'password',
        'connectionString',
      ],
      censor: '[redacted]',
    },
    // An error may carry a connection string with its password (in its message, its stack or a
    // property of its own, as a client library's parse error does): the credentials go.
    serializers: { err: (error: Error) => withoutCredentials(stdSerializers.err(error)) },
  };
  if (typeof format === 'object') return pino(options, format);
  if (format === 'json') return pino(options);
  return pino(options, prettyLines(process.stdout.isTTY));
}

/** `scheme://user:password@host` in any text: the user and password. */
const CREDENTIALS_IN_URL = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*:[^\s/@]*@/gi;

/** A copy of `value` with the credentials of every URL in its text redacted, a few levels deep. */
export function withoutCredentials<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return value.replace(CREDENTIALS_IN_URL, '$1[redacted]@') as T;
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    return (value as unknown[]).map((item) => withoutCredentials(item, depth + 1)) as T;
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, withoutCredentials(item, depth + 1)]),
  ) as T;
}

const prettyLines = (colorize: boolean, destination?: Writable) =>
  pinoPretty({
    colorize,
    translateTime: 'HH:MM:ss',
    ignore: 'pid,hostname,service',
    singleLine: true,
    sync: true,
    ...(destination ? { destination } : {}),
  });

/**
 * For a command-line tool that redraws its terminal's last line (a progress bar): each entry is
 * one readable line that first clears the bar, which the tool's next redraw puts back below it.
 * Anywhere but a terminal, or with LOG_FORMAT=json, entries are JSON as for the services.
 */
export function terminalLogger(
  level: string,
  base: Record<string, unknown>,
  format: LogFormat | undefined,
  out: NodeJS.WriteStream = process.stdout,
): Logger {
  if (!out.isTTY || format === 'json') return createLogger(level, base, out);
  const underTheBar = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.write(`\r\x1b[K${chunk.toString()}`);
      done();
    },
  });
  return createLogger(level, base, prettyLines(true, underTheBar));
}
