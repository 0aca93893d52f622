import type { Pool } from 'pg';
import type { Bet, Resolution, ValidationMode, WagerType } from '@wagers/contracts/api/bets';
import { formatCents } from '@wagers/contracts/api/money';
import type { User } from '@wagers/contracts/api/user';
import { toUser, userColumns, type UserRow } from '../users/user-row.ts';

export interface BetRow {
  id: string;
  title: string;
  description: string;
  wager_type: WagerType;
  /** bigint arrives as a string; converted exactly, never through a float. */
  wager_amount_cents: string | null;
  wager_description: string | null;
  end_date: string | null;
  validation_mode: ValidationMode;
  status: string;
  creator_id: string;
  opponent_id: string | null;
  invitee: string | null;
  creator_resolution: Resolution | null;
  opponent_resolution: Resolution | null;
  winner_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const betColumns = `id, title, description, wager_type, wager_amount_cents, wager_description,
  to_char(end_date, 'YYYY-MM-DD') AS end_date, validation_mode, status, creator_id, opponent_id, invitee,
  creator_resolution, opponent_resolution, winner_id, created_at, updated_at`;

/** Users by id, for the creator, opponent and winner objects of a page of bets. */
export async function loadUsers(
  pool: Pool,
  ids: Iterable<string | null>,
): Promise<Map<string, User>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const result = await pool.query<UserRow>(
    `SELECT ${userColumns} FROM rm_users WHERE id = ANY($1::uuid[])`,
    [wanted],
  );
  return new Map(result.rows.map((row) => [row.id, toUser(row)]));
}

/** A user the users read model has not caught up with yet: the id is right, the rest unknown. */
function unknownUser(id: string, since: Date): User {
  return {
    id,
    firstName: null,
    lastName: null,
    email: null,
    profileImageUrl: null,
    createdAt: since.toISOString(),
  };
}

export function toBet(row: BetRow, users: Map<string, User>, viewerId: string): Bet {
  const user = (id: string | null) =>
    id === null ? null : (users.get(id) ?? unknownUser(id, row.created_at));
  const cents = row.wager_amount_cents === null ? null : Number(row.wager_amount_cents);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    wagerType: row.wager_type,
    wagerAmount: cents === null ? null : formatCents(cents),
    wagerAmountCents: cents,
    wagerDescription: row.wager_description,
    endDate: row.end_date,
    validationMode: row.validation_mode,
    status: row.status,
    creatorId: row.creator_id,
    opponentId: row.opponent_id,
    creator: user(row.creator_id)!,
    opponent: user(row.opponent_id),
    creatorResolution: row.creator_resolution,
    opponentResolution: row.opponent_resolution,
    winnerId: row.winner_id,
    winner: user(row.winner_id),
    invitee: viewerId === row.creator_id ? row.invitee : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function toBets(pool: Pool, rows: BetRow[], viewerId: string): Promise<Bet[]> {
  const users = await loadUsers(
    pool,
    rows.flatMap((row) => [row.creator_id, row.opponent_id, row.winner_id]),
  );
  return rows.map((row) => toBet(row, users, viewerId));
}
