import { describe, expect, it } from 'vitest';
import { codeForVersion, type Projector } from '@wagers/platform/projections/projector';
import { withAddressErasure } from './erasure.ts';

const version = (n: number, previous?: Projector): Projector => ({
  name: 'kept',
  version: n,
  tables: ['kept_rows'],
  eventTypes: new Set(['BetProposed']),
  ...(previous && { previous }),
});

describe('a projector that erases deleted addresses', () => {
  it('erases them in the earlier version it keeps as well, so a live build of that version stays clean', () => {
    const wrapped = withAddressErasure(version(3, version(2, version(1))), () => Promise.resolve());
    for (const n of [3, 2, 1]) {
      const code = codeForVersion(wrapped, n);
      expect(code?.version).toBe(n);
      expect([...(code?.eventTypes ?? [])]).toEqual(['BetProposed', 'AccountDeleted']);
      expect(typeof code?.applyPage).toBe('function');
    }
    expect(codeForVersion(wrapped, 4)).toBeNull();
  });
});
