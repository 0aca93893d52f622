import { randomUUID } from 'node:crypto';
import type { GlobalPosition } from '@wagers/contracts/position';
import { inviteAggregate } from '@wagers/domain/invites/invite';
import { handle } from '@wagers/platform/aggregate';
import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';

/**
 * An invite from `inviterId` written as invites were before links were signed (decision 33): its
 * code alone, which the event log shows, opens it. The notifier sends it as it sent those.
 */
export async function sendUnsignedInvite(
  databaseUrl: string,
  inviterId: string,
  invitee: { email: string; phone?: undefined } | { phone: string; email?: undefined },
): Promise<{ code: string; position: GlobalPosition | null }> {
  const pool = createPool(databaseUrl, 2);
  const store = createEventStore(loadConfig({}), pool, databaseUrl);
  const code = randomUUID().replaceAll('-', '');
  try {
    const sent = await handle(
      store,
      inviteAggregate,
      code,
      {
        type: 'SendInvite',
        data: {
          code,
          inviterId,
          inviterName: 'Ann Lee',
          inviterEmail: 'ann@example.com',
          inviterPhone: null,
          inviteeEmail: invitee.email ?? null,
          inviteePhone: invitee.phone ?? null,
          phoneOptedOut: false,
          betId: null,
          message: null,
          at: new Date().toISOString(),
          requestHash: null,
          signedLink: false,
        },
      },
      { actorId: inviterId, correlationId: randomUUID(), now: new Date(), newId: randomUUID },
    );
    return { code, position: sent.position };
  } finally {
    await store.close();
    await pool.end();
  }
}
