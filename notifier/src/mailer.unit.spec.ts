import { describe, expect, it } from 'vitest';
import { pooledSmtpUrl } from './mailer.ts';

describe('the SMTP connection', () => {
  it('is pooled unless SMTP_URL says otherwise', () => {
    expect(pooledSmtpUrl('smtps://user:p%40ss@mail.example.com:465')).toBe(
      'smtps://user:p%40ss@mail.example.com:465?pool=true',
    );
    expect(pooledSmtpUrl('smtp://127.0.0.1:2525/?tls.rejectUnauthorized=false')).toBe(
      'smtp://127.0.0.1:2525/?tls.rejectUnauthorized=false&pool=true',
    );
    expect(pooledSmtpUrl('smtp://127.0.0.1:2525/?pool=false')).toBe(
      'smtp://127.0.0.1:2525/?pool=false',
    );
  });
});
