import type { Pool } from 'pg';
import { userEventSchemas } from '@wagers/contracts/events/user';
import { emailReservationByDigest } from '@wagers/domain/users/email-reservation';
import { handle } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { destroyDataKeys } from '@wagers/platform/event-store/personal-data';
import type { EventStore } from '@wagers/platform/event-store/port';
import {
  emailDigestSql,
  emailSubject,
  userSubject,
} from '@wagers/platform/event-store/sealed-fields';
import { endUserSessions } from '@wagers/platform/auth/sessions';
import type { AvatarStore } from '../avatar/avatar-store.ts';
import type { ProcessManager } from '../process-managers/process-manager.ts';

/**
 * What a deleted account leaves outside the event log and the read models: its sessions (signed
 * out everywhere), provider sign-ins, sign-in links and rate-limit counters keyed by its address,
 * and the development inbox's mail to it.
 */
async function sweepAccountRows(pool: Pool, userId: string, digest: string): Promise<void> {
  await endUserSessions(pool, userId);
  await pool.query('DELETE FROM provider_identities WHERE user_id = $1', [userId]);
  await pool.query(`DELETE FROM login_tokens WHERE ${emailDigestSql('email')} = $1`, [digest]);
  await pool.query(
    `DELETE FROM rate_limit_hits WHERE bucket LIKE 'invites-per-email:%'
       AND ${emailDigestSql("substr(bucket, length('invites-per-email:') + 1)")} = $1`,
    [digest],
  );
  await pool.query(
    `DELETE FROM dev_outbox WHERE channel = 'email' AND ${emailDigestSql('recipient')} = $1`,
    [digest],
  );
}

export const ACCOUNT_ERASURE_TRIGGERS: ReadonlySet<string> = new Set(['AccountDeleted']);

/**
 * A deleted account is erased: its address is freed for a new account, its keys are destroyed, so
 * every personal field it sealed reads as null from then on, and the rows and pictures it left are
 * swept. Each
 * step is a no-op the second time, so a crash in between is finished by the next run. Its bets
 * are let go by a manager of their own (`betsOfDeletedAccounts`).
 */
export function accountErasure(
  store: EventStore,
  pool: Pool,
  avatars: Pick<AvatarStore, 'removeAllOf'>,
): ProcessManager {
  return {
    name: 'pm-account-erasure',
    reactsTo: ACCOUNT_ERASURE_TRIGGERS,
    async react(event, context) {
      const { userId, emailDigest } = userEventSchemas.AccountDeleted.parse(event.data);
      const asThePerson: CommandContext = { ...context, actorId: userId };
      const released = await handle(
        store,
        emailReservationByDigest,
        emailDigest,
        { type: 'ReleaseEmail', data: { userId } },
        asThePerson,
      );
      await destroyDataKeys(store, [userSubject(userId), emailSubject(emailDigest)]);
      await sweepAccountRows(pool, userId, emailDigest);
      // Every picture the account ever set or uploaded, not only the last one: their URLs stop
      // serving them. A storage failure throws, and the runner tries the event again.
      await avatars.removeAllOf(userId);
      return released.position;
    },
  };
}
