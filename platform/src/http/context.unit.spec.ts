import { describe, expect, it } from 'vitest';
import { loggablePath } from './context.ts';

describe('the path a request log line shows', () => {
  it('leaves out invite codes, as it leaves out query strings', () => {
    expect(loggablePath('/api/invites/Ab3dEf6hIj9kLm2n/accept')).toBe(
      '/api/invites/[redacted]/accept',
    );
    expect(loggablePath('/api/invites/Ab3dEf6hIj9kLm2n')).toBe('/api/invites/[redacted]');
    expect(loggablePath('/invite/Ab3dEf6hIj9kLm2n?x=1')).toBe('/invite/[redacted]');
    expect(loggablePath('/api/login/verify?token=secret')).toBe('/api/login/verify');
  });

  it('keeps paths without a code as they are', () => {
    expect(loggablePath('/api/invites')).toBe('/api/invites');
    expect(loggablePath('/api/bets/123/accept')).toBe('/api/bets/123/accept');
  });
});
