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

/** The people a bet names, as the users read model holds them (null until it has caught up). */
type Person = 'creator' | 'opponent' | 'winner';
const people: Person[] = ['creator', 'opponent', 'winner'];

/** A bet row with its people joined in: `creator_known`, `creator_email`, `opponent_first_name`... */
export type BetWithPeopleRow = BetRow &
  Record<`${Person}_known`, boolean> &
  Record<`${Person}_${'email' | 'first_name' | 'last_name' | 'profile_image_url'}`, string | null> &
  Record<`${Person}_${'created_at' | 'deleted_at'}`, Date | null>;

const userFields = userColumns.split(', ').filter((column) => column !== 'id');

/**
 * `SELECT ${betColumns} FROM ${betsWithPeople} WHERE ...`: the bet (alias `b`) and, in the same
 * statement, the users it names.
 */
export const betColumns = [
  `b.id, b.title, b.description, b.wager_type, b.wager_amount_cents, b.wager_description,
  to_char(b.end_date, 'YYYY-MM-DD') AS end_date, b.validation_mode, b.status, b.creator_id,
  b.opponent_id, b.invitee, b.creator_resolution, b.opponent_resolution, b.winner_id, b.created_at,
  b.updated_at`,
  ...people.flatMap((person) => [
    `${person}.id IS NOT NULL AS ${person}_known`,
    ...userFields.map((column) => `${person}.${column} AS ${person}_${column}`),
  ]),
].join(', ');

export const betsWithPeople = `rm_bets b ${people
  .map((person) => `LEFT JOIN rm_users ${person} ON ${person}.id = b.${person}_id`)
  .join(' ')}`;

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

/** The person's user object from the joined columns. */
function joinedUser(row: BetWithPeopleRow, person: Person): User | null {
  const id = row[`${person}_id`];
  if (id === null) return null;
  if (!row[`${person}_known`]) return unknownUser(id, row.created_at);
  return toUser({
    id,
    email: row[`${person}_email`],
    first_name: row[`${person}_first_name`],
    last_name: row[`${person}_last_name`],
    profile_image_url: row[`${person}_profile_image_url`],
    created_at: row[`${person}_created_at`]!,
    deleted_at: row[`${person}_deleted_at`],
  });
}

export function toBet(row: BetWithPeopleRow, viewerId: string): Bet {
  const user = (person: Person) => joinedUser(row, person);
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
    creator: user('creator')!,
    opponent: user('opponent'),
    creatorResolution: row.creator_resolution,
    opponentResolution: row.opponent_resolution,
    winnerId: row.winner_id,
    winner: user('winner'),
    invitee: viewerId === row.creator_id ? row.invitee : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
