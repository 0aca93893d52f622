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
  phoneSubject,
  userSubject,
} from '@wagers/platform/event-store/sealed-fields';
import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';
import { readLivePositions } from '@wagers/platform/projections/checkpoints';
import { endUserSessions } from '@wagers/platform/auth/sessions';
import type { AvatarStore } from '../avatar/avatar-store.ts';
import type { ProcessManager } from '../process-managers/process-manager.ts';

/**
 * What a deleted account leaves outside the event log and the read models: its sessions (signed
 * out everywhere), provider sign-ins, sign-in links and rate-limit counters keyed by its address,
 * and the development inbox's mail to it. (What its number left goes before its keys, while the
 * number still reads: `sweepPhoneRows`.)
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

/** What the account's number left outside the log: its invitation counters and texts to it. */
async function sweepPhoneRows(pool: Pool, phones: string[]): Promise<void> {
  if (phones.length === 0) return;
  await pool.query(`DELETE FROM rate_limit_hits WHERE bucket = ANY($1)`, [
    phones.map((phone) => `invites-per-phone:${phone}`),
  ]);
  await pool.query(`DELETE FROM dev_outbox WHERE channel = 'sms' AND recipient = ANY($1)`, [
    phones,
  ]);
}

/** The read models that copy an invitee's number in clear and clear it on AccountDeleted. */
const READ_MODELS_WITH_NUMBERS = ['invites', 'bets', 'activity'];
const CATCH_UP_MS = 10_000;

/**
 * Waits until the read models that hold invitees' numbers have passed the deletion: they read the
 * account's number from the event, which opens only until its key is destroyed. Past the wait it
 * throws, and the event is tried again on a later page.
 */
async function readModelsPast(pool: Pool, position: GlobalPosition): Promise<void> {
  const deadline = Date.now() + CATCH_UP_MS;
  for (;;) {
    const live = await readLivePositions(pool);
    const behind = READ_MODELS_WITH_NUMBERS.filter((name) => {
      const at = live.get(name)?.position;
      return !at || comparePositions(at, position) < 0;
    });
    if (behind.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`Read models ${behind.join(', ')} have not reached the deletion yet`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
      const { userId, emailDigest, phones } = userEventSchemas.AccountDeleted.parse(event.data);
      // Null once the keys are destroyed: a second run finds them destroyed already.
      const numbers = phones ?? [];
      const asThePerson: CommandContext = { ...context, actorId: userId };
      const released = await handle(
        store,
        emailReservationByDigest,
        emailDigest,
        { type: 'ReleaseEmail', data: { userId } },
        asThePerson,
      );
      if (numbers.length > 0) {
        await readModelsPast(pool, event.position);
        await sweepPhoneRows(pool, numbers);
      }
      await destroyDataKeys(store, [
        userSubject(userId),
        emailSubject(emailDigest),
        ...numbers.map(phoneSubject),
      ]);
      await sweepAccountRows(pool, userId, emailDigest);
      // Every picture the account ever set or uploaded, not only the last one: their URLs stop
      // serving them. A storage failure throws, and the runner tries the event again.
      await avatars.removeAllOf(userId);
      return released.position;
    },
  };
}
