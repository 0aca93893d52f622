import type { Pool } from 'pg';
import type { Bet, Stats } from '@wagers/contracts/api/bets';
import type { JsonText } from '@wagers/platform/http/json-text';
import { liveStateSql, type StatedRead } from '@wagers/platform/projections/read-cache';
import { betsJsonStatement, type BetsJsonForm } from './bet-row.ts';
import { isUuid } from '@wagers/contracts/ids';

/** Bets show users too: the read models a bet's JSON comes from. */
export const BET_READS = ['bets', 'users'];

/** Only a well-formed id can name a bet; anything else is simply not found. */
export const isBetId = (id: string) => isUuid(id);

interface NamedQuery {
  name: string;
  text: string;
}

const mine = '(creator_id = $1 OR opponent_id = $1)';

/**
 * Named, so each connection plans them once: with the people joined in, planning costs more than
 * running them. A switch to a new build replaces the views, and PostgreSQL plans again. Both
 * answer JSON text PostgreSQL built, which the routes send as it is: `prerendered` reads each
 * bet's own fields as its row keeps them, `inline` makes them, for a live build without them.
 */
const listText = (form: BetsJsonForm) =>
  betsJsonStatement(
    form,
    `${mine} AND status <> 'deleted'`,
    (json) => `'[' || coalesce(string_agg(${json}, ',' ORDER BY b.created_at DESC, b.seq DESC), '')
           || ']' AS json, ${liveStateSql(BET_READS)} AS state`,
  );
const findText = (form: BetsJsonForm) =>
  betsJsonStatement(
    form,
    `id = $2 AND ${mine} AND status <> 'deleted'`,
    (json) => `${json} AS json, ${liveStateSql(BET_READS)} AS state`,
  );

export const LIST_BETS = {
  prerendered: { name: 'bets_list_json', text: listText('prerendered') },
  inline: { name: 'bets_list_json_inline', text: listText('inline') },
};
export const FIND_BET = {
  prerendered: { name: 'bets_find_json', text: findText('prerendered') },
  inline: { name: 'bets_find_json_inline', text: findText('inline') },
};

/** PostgreSQL's code for a column that does not exist. */
const UNDEFINED_COLUMN = '42703';
/** How long reads make the JSON themselves before they look again whether the live build can. */
const INLINE_FOR_MS = 1_000;

/**
 * Whether the bets the pool's reads name keep their own fields as JSON text: found in the
 * catalogue, as the reads' statements resolve the name, so that no read has to fail to find out.
 */
const PRERENDERED_CHECK = {
  name: 'bets_json_columns',
  text: `SELECT EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass('rm_bets')
                          AND attname = 'json_start' AND NOT attisdropped) AS prerendered`,
};

/** Per pool: the form its reads take, and until when (a live build never loses its columns). */
const forms = new WeakMap<Pool, { form: BetsJsonForm; until: number }>();

async function formFor(pool: Pool): Promise<BetsJsonForm> {
  const known = forms.get(pool);
  if (known && Date.now() < known.until) return known.form;
  const { rows } = await pool.query<{ prerendered: boolean }>(PRERENDERED_CHECK);
  const form = rows[0]?.prerendered ? 'prerendered' : 'inline';
  forms.set(pool, { form, until: form === 'inline' ? Date.now() + INLINE_FOR_MS : Infinity });
  return form;
}

/**
 * Runs the prerendered form of a statement, or the inline one while the live build of bets has
 * no prerendered columns: on a new database until the first build of this version is switched
 * to, and during a deploy that raised the bets version, the build made by the code before
 * serves reads.
 */
async function jsonRows(
  pool: Pool,
  statement: Record<BetsJsonForm, NamedQuery>,
  values: string[],
): Promise<JsonRow[]> {
  if ((await formFor(pool)) === 'prerendered') {
    try {
      return (await pool.query<JsonRow>({ ...statement.prerendered, values })).rows;
    } catch (error) {
      // Only if reads were switched back to a build made by older code.
      if ((error as { code?: unknown }).code !== UNDEFINED_COLUMN) throw error;
      forms.set(pool, { form: 'inline', until: Date.now() + INLINE_FOR_MS });
    }
  }
  return (await pool.query<JsonRow>({ ...statement.inline, values })).rows;
}

/** A statement's JSON text, and the state of the read models its rows come from. */
interface JsonRow {
  json: string;
  state: string | null;
}

/** The caller's bets, newest first; deleted ones have left the list. */
export async function listBets(pool: Pool, userId: string): Promise<StatedRead<JsonText<Bet[]>>> {
  const [row] = await jsonRows(pool, LIST_BETS, [userId]);
  return { value: row?.json ?? '[]', state: row?.state ?? null };
}

/** One bet, if the caller takes part in it; null for everyone else, as for an unknown id. */
export async function findBet(
  pool: Pool,
  userId: string,
  betId: string,
): Promise<StatedRead<JsonText<Bet>> | null> {
  if (!isBetId(betId)) return null;
  const [row] = await jsonRows(pool, FIND_BET, [userId, betId]);
  return row ? { value: row.json, state: row.state } : null;
}

export async function betStats(pool: Pool, userId: string): Promise<Stats> {
  const result = await pool.query<{ total: string; active: string; won: string; friends: string }>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE status IN ('active', 'awaiting_resolution')) AS active,
            count(*) FILTER (WHERE winner_id = $1) AS won,
            (SELECT count(*) FROM rm_friendships f JOIN rm_users u ON u.id = f.friend_id
              WHERE f.user_id = $1 AND u.deleted_at IS NULL) AS friends
       FROM rm_bets WHERE ${mine} AND status <> 'deleted'`,
    [userId],
  );
  const row = result.rows[0];
  return {
    totalBets: Number(row?.total ?? 0),
    activeBets: Number(row?.active ?? 0),
    wonBets: Number(row?.won ?? 0),
    friendsCount: Number(row?.friends ?? 0),
  };
}
