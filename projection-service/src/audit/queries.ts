import type { Pool } from 'pg';
import {
  AUDIT_SEARCH_LIMIT,
  type AuditBetSummary,
  type AuditParticipant,
  type AuditSearchQuery,
  type AuditTrailEntry,
} from '@wagers/contracts/api/audit';
import { displayName } from '@wagers/contracts/api/user';
import { isUuid } from '@wagers/contracts/ids';

const TRAIL_LIMIT = 200;

interface SearchRow {
  id: string;
  title: string;
  status: string;
  created_at: Date;
  creator_id: string;
  opponent_id: string | null;
  c_email: string | null;
  c_first: string | null;
  c_last: string | null;
  o_email: string | null;
  o_first: string | null;
  o_last: string | null;
  c_deleted: boolean;
  o_deleted: boolean;
}

function participant(
  id: string,
  email: string | null,
  firstName: string | null,
  lastName: string | null,
  deleted: boolean,
): AuditParticipant {
  // An erased account has no name left: "Deleted user", as the bet's history calls it.
  return { id, name: displayName({ email, firstName, lastName, deleted }), email };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Bets, deleted ones included, newest first: `q` is a bet id, or part of a participant's email
 * or name, the address or number of a newcomer invited to it included (until they join, when
 * they are its opponent); `from` and `to` bound the day (UTC) the bet was proposed on.
 */
export async function searchBets(pool: Pool, query: AuditSearchQuery): Promise<AuditBetSummary[]> {
  const q = query.q || null;
  const id = q && isUuid(q) ? q : null;
  const pattern = q && !id ? `%${escapeLike(q)}%` : null;
  const { rows } = await pool.query<SearchRow>(
    `SELECT b.id, b.title, b.status, b.created_at, b.creator_id, b.opponent_id,
            c.email AS c_email, c.first_name AS c_first, c.last_name AS c_last,
            o.email AS o_email, o.first_name AS o_first, o.last_name AS o_last,
            c.deleted_at IS NOT NULL AS c_deleted, o.deleted_at IS NOT NULL AS o_deleted
       FROM rm_bets b
       LEFT JOIN rm_users c ON c.id = b.creator_id
       LEFT JOIN rm_users o ON o.id = b.opponent_id
      WHERE ($1::uuid IS NULL OR b.id = $1::uuid)
        AND ($2::text IS NULL
             OR c.email ILIKE $2 OR concat_ws(' ', c.first_name, c.last_name) ILIKE $2
             OR o.email ILIKE $2 OR concat_ws(' ', o.first_name, o.last_name) ILIKE $2
             OR b.invitee ILIKE $2)
        AND ($3::date IS NULL OR (b.created_at AT TIME ZONE 'UTC')::date >= $3::date)
        AND ($4::date IS NULL OR (b.created_at AT TIME ZONE 'UTC')::date <= $4::date)
      ORDER BY b.created_at DESC, b.seq DESC
      LIMIT ${AUDIT_SEARCH_LIMIT}`,
    [id, pattern, query.from ?? null, query.to ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    creator: participant(row.creator_id, row.c_email, row.c_first, row.c_last, row.c_deleted),
    opponent: row.opponent_id
      ? participant(row.opponent_id, row.o_email, row.o_first, row.o_last, row.o_deleted)
      : null,
  }));
}

/** The latest looks auditors took, at one bet or at any, newest first. */
export async function auditTrail(pool: Pool, betId: string | null): Promise<AuditTrailEntry[]> {
  const { rows } = await pool.query<{
    event_id: string;
    auditor_id: string;
    bet_id: string;
    view: AuditTrailEntry['view'];
    viewed_at: Date;
    as_of: Date | null;
    email: string | null;
    first_name: string | null;
    last_name: string | null;
    deleted: boolean;
  }>(
    `SELECT t.event_id, t.auditor_id, t.bet_id, t.view, t.viewed_at, t.as_of,
            u.email, u.first_name, u.last_name,
            u.deleted_at IS NOT NULL AS deleted
       FROM rm_audit_trail t LEFT JOIN rm_users u ON u.id = t.auditor_id
      WHERE $1::uuid IS NULL OR t.bet_id = $1::uuid
      ORDER BY t.viewed_at DESC, t.event_id
      LIMIT ${TRAIL_LIMIT}`,
    [betId],
  );
  return rows.map((row) => ({
    eventId: row.event_id,
    auditorId: row.auditor_id,
    auditorName: displayName({
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      deleted: row.deleted,
    }),
    betId: row.bet_id,
    view: row.view,
    viewedAt: row.viewed_at.toISOString(),
    asOf: row.as_of?.toISOString() ?? null,
  }));
}
