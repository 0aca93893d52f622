import type { Pool } from 'pg';
import { userEventSchemas } from '@wagers/contracts/events/user';
import { emailReservationByDigest } from '@wagers/domain/users/email-reservation';
import { handle, load } from '@wagers/platform/aggregate';
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
 * What a deleted account leaves outside the event log and the read models, by its id: its sessions
 * (signed out everywhere) and provider sign-ins. (What its address left goes while the address is
 * still the account's: `sweepAddressRows`; what its number left, while the number still reads:
 * `sweepPhoneRows`.)
 */
async function sweepAccountRows(pool: Pool, userId: string): Promise<void> {
  await endUserSessions(pool, userId);
  await pool.query('DELETE FROM provider_identities WHERE user_id = $1', [userId]);
}

/**
 * What the account's address left outside the log: sign-in links asked for up to the deletion,
 * invitation counters of the address, and the development inbox's mail to it. Only while the
 * account still holds the address: after the release they may be a new account's. A link asked
 * for after the deletion is already the next account's: the person signing up again follows it
 * once the address is released.
 *
 * Which side of the deletion a link is on is not told by time: a link's `created_at` comes from
 * the clock of the process that sent it and the deletion's `occurredAt` from that of the process
 * that deleted the account, and two machines' clocks may be further apart than the two moments.
 * The process that sends a link first looks in the log whether the address is a deleted
 * account's still, and if so marks the link with that account (`asked_after_deletion_of`): the
 * log orders the look and the deletion, whatever the clocks. A link whose look came just before
 * the deletion is swept, which at worst costs the person another link; a link is never kept for
 * a deletion its sender had not seen.
 */
async function sweepAddressRows(pool: Pool, digest: string, userId: string): Promise<void> {
  await pool.query(
    `DELETE FROM login_tokens WHERE ${emailDigestSql('email')} = $1
       AND asked_after_deletion_of IS DISTINCT FROM $2`,
    [digest, userId],
  );
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
 * A deleted account is erased: its keys are destroyed, so every personal field it sealed reads as
 * null from then on, its address is freed for a new account, and the rows and pictures it left are
 * swept. Each step is a no-op the second time, so a crash in between is finished by the next run.
 * What is keyed by the address (its key, sign-in links, counters) goes before the release and only
 * while this account still holds the address: a run again after the release, when a new account
 * may have signed up with it, leaves the new account's alone. Its bets are let go by a manager of
 * their own (`betsOfDeletedAccounts`).
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
      // Only this manager releases it, so while it is held by the account nobody else takes it.
      const reservation = await load(store, emailReservationByDigest, emailDigest);
      if (reservation.userId === userId) {
        await destroyDataKeys(store, [emailSubject(emailDigest)]);
        await sweepAddressRows(pool, emailDigest, userId);
      }
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
      await destroyDataKeys(store, [userSubject(userId), ...numbers.map(phoneSubject)]);
      await sweepAccountRows(pool, userId);
      // Every picture the account ever set or uploaded, not only the last one: their URLs stop
      // serving them. A storage failure throws, and the runner tries the event again.
      await avatars.removeAllOf(userId);
      return released.position;
    },
  };
}
