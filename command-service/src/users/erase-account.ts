import type { Pool } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';
import { userEventSchemas } from '@wagers/contracts/events/user';
import { betAggregate } from '@wagers/domain/bets/decide';
import { emailReservationByDigest } from '@wagers/domain/users/email-reservation';
import { handle } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { DomainError } from '@wagers/platform/errors';
import { destroyDataKeys } from '@wagers/platform/event-store/personal-data';
import type { EventStore } from '@wagers/platform/event-store/port';
import { readLivePositions } from '@wagers/platform/projections/checkpoints';
import {
  emailDigestSql,
  emailSubject,
  userSubject,
} from '@wagers/platform/event-store/sealed-fields';
import { endUserSessions } from '@wagers/platform/auth/sessions';
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

const CATCH_UP_MS = 10_000;

/**
 * Waits until the bets read model holds every event up to the deletion, so no bet proposed
 * before it is missed. Past the wait it throws, and the event is tried again on a later page.
 */
async function betsReadModelPast(pool: Pool, position: GlobalPosition): Promise<void> {
  const deadline = Date.now() + CATCH_UP_MS;
  for (;;) {
    const live = (await readLivePositions(pool)).get('bets')?.position;
    if (live && comparePositions(live, position) >= 0) return;
    if (Date.now() > deadline) {
      throw new Error('The bets read model has not reached the account deletion yet');
    }
    await sleep(50);
  }
}

/**
 * Bets the person is a side of that their leaving changes, from the bets read model once it has
 * the deletion: pending ones, and those waiting for the outcome (the other side's report stands).
 */
async function openBetsOf(pool: Pool, userId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM rm_bets WHERE status IN ('pending', 'awaiting_resolution')
        AND (creator_id = $1 OR opponent_id = $1)`,
    [userId],
  );
  return rows.map((row) => row.id);
}

export const ACCOUNT_ERASURE_TRIGGERS: ReadonlySet<string> = new Set(['AccountDeleted']);

/**
 * A deleted account is erased: its address is freed for a new account, its pending bets end as
 * the rules allow (the other side is told by the notifier), a report the other side made on a bet
 * under way stands, its keys are destroyed, so every personal field it sealed reads as null from
 * then on, and the rows it left are swept. Each step is a no-op the second time, so a crash in
 * between is finished by the next run.
 */
export function accountErasure(store: EventStore, pool: Pool): ProcessManager {
  return {
    name: 'pm-account-erasure',
    reactsTo: ACCOUNT_ERASURE_TRIGGERS,
    async react(event, context) {
      const { userId, emailDigest } = userEventSchemas.AccountDeleted.parse(event.data);
      const asThePerson: CommandContext = { ...context, actorId: userId };
      let last: GlobalPosition | null = null;
      const released = await handle(
        store,
        emailReservationByDigest,
        emailDigest,
        { type: 'ReleaseEmail', data: { userId } },
        asThePerson,
      );
      last = released.position ?? last;
      await betsReadModelPast(pool, event.position);
      for (const betId of await openBetsOf(pool, userId)) {
        try {
          const left = await handle(
            store,
            betAggregate,
            betId,
            { type: 'LeaveForDeletedAccount', data: { actorId: userId } },
            asThePerson,
          );
          last = left.position ?? last;
        } catch (error) {
          // A bet the read model still listed but the rules no longer let go: it stays as it is.
          if (!(error instanceof DomainError)) throw error;
        }
      }
      await destroyDataKeys(store, [userSubject(userId), emailSubject(emailDigest)]);
      await sweepAccountRows(pool, userId, emailDigest);
      return last;
    },
  };
}
