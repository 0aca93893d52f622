import { describe, it } from 'vitest';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { auditorDecider } from './auditor.ts';

const spec = deciderSpec(auditorDecider);
const userId = 'user-1';
const granted = { type: 'AuditorRoleGranted' as const, data: { userId } };
const revoked = { type: 'AuditorRoleRevoked' as const, data: { userId } };
const grant = { type: 'GrantAuditorRole' as const, data: { userId } };
const revoke = { type: 'RevokeAuditorRole' as const, data: { userId } };

describe('auditor role', () => {
  it('is granted once', () => {
    spec.given([]).when(grant).then([granted]);
    spec.given([granted]).when(grant).thenNothing();
  });

  it('is revoked only when held', () => {
    spec.given([granted]).when(revoke).then([revoked]);
    spec.given([]).when(revoke).thenNothing();
    spec.given([granted, revoked]).when(revoke).thenNothing();
  });

  it('can be granted again after a revocation', () => {
    spec.given([granted, revoked]).when(grant).then([granted]);
  });
});
