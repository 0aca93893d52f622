import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, terminalLogger } from './logger.ts';

/** A terminal's output as a tool writes to it: what it was sent, in order. */
function terminal(isTTY: boolean) {
  const written: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  }) as Writable & { isTTY: boolean };
  out.isTTY = isTTY;
  return { out: out as unknown as NodeJS.WriteStream, written };
}

describe('a command-line tool logging under its progress bar', () => {
  it('on a terminal: clears the bar, then writes one readable line, secrets redacted', () => {
    const { out, written } = terminal(true);
    out.write('\rbets  41% 410,000 / 1,000,000 events');
    const logger = terminalLogger('warn', { service: 'projections-cli' }, undefined, out);
    logger.info('not shown below warn');
    logger.warn({ token: 'abc123' }, 'the database went away; retrying');
    expect(written).toHaveLength(2);
    const line = written[1]!;
    expect(line.startsWith('\r\x1b[K')).toBe(true);
    expect(line).toContain('the database went away; retrying');
    expect(line).not.toContain('abc123');
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line.slice(4).trimStart().startsWith('{')).toBe(false);
  });

  it('piped, or with LOG_FORMAT=json: JSON lines as the services write', () => {
    for (const [isTTY, format] of [
      [false, undefined],
      [true, 'json'],
    ] as const) {
      const { out, written } = terminal(isTTY);
      const logger = terminalLogger('warn', { service: 'projections-cli' }, format, out);
      logger.warn('the database went away; retrying');
      expect(written).toHaveLength(1);
      expect(JSON.parse(written[0]!)).toMatchObject({
        level: 40,
        service: 'projections-cli',
        msg: 'the database went away; retrying',
      });
    }
  });
});

describe('a service logging an error', () => {
  it('never writes the credentials of a connection string the error carries', () => {
    const { out, written } = terminal(false);
    const logger = createLogger('info', {}, out);
    // As @eventstore/db-client's ParseError carries the string it could not parse.
    const error = Object.assign(
      new Error('Unexpected "flase" in esdb://admin:S3cret@eventstore:2113?tls=flase'),
      { connectionString: 'esdb://admin:S3cret@eventstore:2113?tls=flase' },
    );
    logger.fatal({ err: error }, 'wagers could not start');
    logger.error(
      { err: new Error('connect to postgres://wagers:pw0rd@db:5432/wagers failed') },
      'x',
    );
    const text = written.join('');
    expect(text).toContain('wagers could not start');
    expect(text).toContain('eventstore:2113');
    expect(text).toContain('db:5432/wagers');
    expect(text).not.toContain('S3cret');
    expect(text).not.toContain('pw0rd');
  });
});
