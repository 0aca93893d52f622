import { pino, type DestinationStream, type Logger } from 'pino';
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
  return pino(
    options,
    pinoPretty({
      colorize: process.stdout.isTTY,
      translateTime: 'HH:MM:ss',
      ignore: 'pid,hostname,service',
      singleLine: true,
      sync: true,
    }),
  );
}
