import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; anything that could carry a secret is redacted wherever it appears. */
export function createLogger(
  level: string,
  base: Record<string, unknown> = {},
  destination?: DestinationStream,
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
  return destination ? pino(options, destination) : pino(options);
}
