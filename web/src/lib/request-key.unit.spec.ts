import { describe, expect, it } from 'vitest';
import { requestKeys } from './request-key.ts';

describe('requestKeys', () => {
  it('reuses the key for the same body and makes a new one when the body changes', () => {
    let n = 0;
    const keyFor = requestKeys(() => `key-${++n}`);
    expect(keyFor({ title: 'Rain' })).toBe('key-1');
    expect(keyFor({ title: 'Rain' })).toBe('key-1');
    expect(keyFor({ title: 'Snow' })).toBe('key-2');
    expect(keyFor({ title: 'Rain' })).toBe('key-3');
  });

  it('makes a new key for the same body once the request was answered', () => {
    let n = 0;
    const keyFor = requestKeys(() => `key-${++n}`);
    expect(keyFor({ inviteeEmail: 'nora@example.com' })).toBe('key-1');
    expect(keyFor({ inviteeEmail: 'nora@example.com' })).toBe('key-1');
    keyFor.answered();
    expect(keyFor({ inviteeEmail: 'nora@example.com' })).toBe('key-2');
  });
});
