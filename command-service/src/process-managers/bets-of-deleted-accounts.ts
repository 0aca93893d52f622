import type { Pool } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';
import { betEventSchemas } from '@wagers/contracts/events/bet';
import { userEventSchemas, userStream } from '@wagers/contracts/events/user';
import { betAggregate } from '@wagers/domain/bets/decide';
import { userAggregate } from '@wagers/domain/users/user';
import { handle, load } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { DomainError } from '@wagers/platform/errors';
import { withStreamsRead } from '@wagers/platform/event-store/page-streams';
import type { EventStore, RecordedEvent } from '@wagers/platform/event-store/port';
import { readLivePositions } from '@wagers/platform/projections/checkpoints';
import type { ProcessManager } from './process-manager.ts';

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

/** Bets the person is a side of that their leaving changes: pending ones, and those under way. */
async function openBetsOf(pool: Pool, userId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM rm_bets WHERE status IN ('pending', 'active', 'awaiting_resolution')
        AND (creator_id = $1 OR opponent_id = $1)`,
    [userId],
  );
  return rows.map((row) => row.id);
}

export const BETS_OF_DELETED_ACCOUNTS_TRIGGERS: ReadonlySet<string> = new Set(['AccountDeleted']);

/** Bet events that make someone a side of a bet: a proposal, and a newcomer joining by invite. */
const BECOMING_A_SIDE: ReadonlySet<string> = new Set(['BetProposed', 'BetInviteAccepted']);

/** Who the event makes a side of its bet. */
function sidesOf(event: RecordedEvent): string[] {
  if (event.type === 'BetInviteAccepted') {
    return [betEventSchemas.BetInviteAccepted.parse(event.data).opponentId];
  }
  const { creatorId, opponentId } = betEventSchemas.BetProposed.parse(event.data);
  return opponentId ? [creatorId, opponentId] : [creatorId];
}

/**
 * A deleted account's bets let go of it, each by a command on the bet alone: a pending one ends as
 * the rules allow (the other side is told by the notifier), and one under way records that the
 * side left, so the other side's report stands, at once if they made it already. Each bet's
 * decision is a no-op the second time. Added after accounts could already be deleted, this
 * manager followed the log from its start once, and so also let go of the bets of accounts
 * deleted before it.
 *
 * A bet can also gain a side after that side's deletion in the log: a proposal whose command read
 * the other side's account just before the deletion was appended, and appended just after; a
 * newcomer joining by an invite they accepted just before deleting their account (the joining
 * follows the acceptance in another manager). Those events are therefore looked at too (the
 * accounts they name read once for the page), and a bet a deleted account became a side of is let
 * go of as any other. Nothing else waits for that look: it seldom acts, so those events do not
 * make their actor's reads wait for this manager.
 */
export function betsOfDeletedAccounts(store: EventStore, pool: Pool): ProcessManager {
  /** The accounts the page's events make sides of bets, read at the page's start. */
  let accounts: EventStore = store;
  async function leave(betId: string, userId: string, context: CommandContext) {
    try {
      const left = await handle(
        store,
        betAggregate,
        betId,
        { type: 'LeaveForDeletedAccount', data: { actorId: userId } },
        { ...context, actorId: userId },
      );
      return left.position;
    } catch (error) {
      // A bet the read model still listed but the rules no longer let go: it stays as it is.
      if (!(error instanceof DomainError)) throw error;
      return null;
    }
  }
  return {
    name: 'pm-bets-of-deleted-accounts',
    reactsTo: BETS_OF_DELETED_ACCOUNTS_TRIGGERS,
    looksAt: BECOMING_A_SIDE,
    async beginPage(events) {
      const sides = events.filter((event) => BECOMING_A_SIDE.has(event.type)).flatMap(sidesOf);
      accounts =
        sides.length === 0
          ? store
          : await withStreamsRead(store, [...new Set(sides)].map(userStream));
    },
    async react(event, context) {
      let last: GlobalPosition | null = null;
      if (BECOMING_A_SIDE.has(event.type)) {
        const betId = event.streamId.slice('bet-'.length);
        for (const userId of sidesOf(event)) {
          const account = await load(accounts, userAggregate, userId);
          if (account.status === 'deleted') last = (await leave(betId, userId, context)) ?? last;
        }
        return last;
      }
      const { userId } = userEventSchemas.AccountDeleted.parse(event.data);
      await betsReadModelPast(pool, event.position);
      for (const betId of await openBetsOf(pool, userId)) {
        last = (await leave(betId, userId, context)) ?? last;
      }
      return last;
    },
  };
}
