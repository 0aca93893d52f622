import { pino, type DestinationStream, type Logger } from 'pino';
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
        'token',
        'password',
      ],
      censor: '[redacted]',
    },
  };
  if (typeof format === 'object') return pino(options, format);
  if (format === 'json') return pino(options);
  return pino(options, prettyLines(process.stdout.isTTY));
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
