import { describe, expect, it } from 'vitest';
import { startBanner } from './banner.ts';

describe('the start-up banner', () => {
  it('names the URL, the inbox and outbox, the queue board and what was started here', () => {
    const banner = startBanner(
      {
        url: 'http://localhost:5000',
        embedded: ['PostgreSQL (.data/postgres)', 'Redis (redis-server from the PATH)'],
      },
      { devInbox: true, OPERATOR_PASSWORD: 'a-long-password', OPERATOR_USER: 'operator' },
    );
    expect(banner).toContain('Wagers is running at http://localhost:5000');
    expect(banner).toMatch(/Development inbox\s+http:\/\/localhost:5000\/dev\/mail/);
    expect(banner).toMatch(/SMS outbox\s+http:\/\/localhost:5000\/dev\/sms/);
    expect(banner).toMatch(
      /Queue board\s+http:\/\/localhost:5000\/admin\/queues \(user operator\)/,
    );
    expect(banner).toMatch(/Started here\s+PostgreSQL \(\.data\/postgres\), Redis/);
    expect(banner).not.toContain('a-long-password');
  });

  it('says how to switch the board on, and leaves out the inbox when it is off', () => {
    const banner = startBanner(
      { url: 'http://localhost:5000', embedded: [] },
      { devInbox: false, OPERATOR_PASSWORD: undefined, OPERATOR_USER: 'operator' },
    );
    expect(banner).toContain('off (set OPERATOR_PASSWORD to see it)');
    expect(banner).not.toContain('/dev/mail');
    expect(banner).toContain('nothing embedded');
  });
});
