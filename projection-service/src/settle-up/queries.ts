import type { Pool } from 'pg';
import { formatCents } from '@wagers/contracts/api/money';
import type { PaymentStatus, Settlement, SettleUpEntry } from '@wagers/contracts/api/settle-up';
import { isBetId } from '../bets/queries.ts';
import { toUser, userColumns, type UserRow } from '../users/user-row.ts';

interface SettlementRow {
  bet_id: string;
  title: string;
  amount_cents: string;
  winner_id: string;
  loser_id: string;
  payment_status: PaymentStatus;
}

const settlementColumns = 'bet_id, title, amount_cents, winner_id, loser_id, payment_status';

function toSettlement(row: SettlementRow): Settlement {
  const amountCents = Number(row.amount_cents);
  return {
    betId: row.bet_id,
    title: row.title,
    amountCents,
    amount: formatCents(amountCents),
    winnerId: row.winner_id,
    loserId: row.loser_id,
    status: row.payment_status,
  };
}

/** The settlement of one bet the user took part in; null when there is nothing to settle. */
export async function findSettlement(
  pool: Pool,
  userId: string,
  betId: string,
): Promise<Settlement | null> {
  if (!isBetId(betId)) return null;
  const result = await pool.query<SettlementRow>(
    `SELECT ${settlementColumns} FROM rm_settle_up
     WHERE bet_id = $1 AND winner_id IS NOT NULL AND (winner_id = $2 OR loser_id = $2)`,
    [betId, userId],
  );
  const row = result.rows[0];
  return row ? toSettlement(row) : null;
}

/**
 * Per friend, the net over every bet not yet confirmed paid (a bet marked paid still counts until
 * the winner confirms it), largest amounts first, with the bets behind it, newest first.
 */
export async function settleUp(pool: Pool, userId: string): Promise<SettleUpEntry[]> {
  const bets = await pool.query<SettlementRow & { friend_id: string }>(
    `SELECT ${settlementColumns},
            CASE WHEN winner_id = $1 THEN loser_id ELSE winner_id END AS friend_id
     FROM rm_settle_up
     WHERE (winner_id = $1 OR loser_id = $1) AND payment_status <> 'confirmed'
     ORDER BY updated_at DESC, bet_id`,
    [userId],
  );
  const byFriend = new Map<string, Settlement[]>();
  for (const row of bets.rows) {
    byFriend.set(row.friend_id, [...(byFriend.get(row.friend_id) ?? []), toSettlement(row)]);
  }
  if (byFriend.size === 0) return [];
  const users = await pool.query<UserRow>(
    `SELECT ${userColumns} FROM rm_users WHERE id = ANY($1::uuid[])`,
    [[...byFriend.keys()]],
  );
  const entries = users.rows.map((row): SettleUpEntry => {
    const owed = byFriend.get(row.id) ?? [];
    const netCents = owed.reduce(
      (sum, bet) => sum + (bet.winnerId === userId ? bet.amountCents : -bet.amountCents),
      0,
    );
    return {
      friend: toUser(row),
      netCents,
      netAmount: formatCents(Math.abs(netCents)),
      bets: owed,
    };
  });
  return entries.sort((a, b) => Math.abs(b.netCents) - Math.abs(a.netCents));
}
