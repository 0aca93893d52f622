import type { Pool } from 'pg';

export interface BetLogShape {
  users: number;
  bets: number;
  /** Concurrent writers, each proposing, accepting, resolving twice and completing its bets in turn. */
  writers: number;
  /** Bets each writer's transaction carries. */
  betsPerTransaction?: number;
}

const userId = (n: string) => `md5('user' || (${n}))::uuid`;

const metadata = (actor: string, offsetMs: string) =>
  `jsonb_build_object('actorId', ${actor}, 'correlationId', gen_random_uuid(), 'causationId', null,
     'occurredAt', to_char(timestamp '2026-01-01' + (${offsetMs}) * interval '1 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
     'schemaVersion', 1)`;

const insertUsers = `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
  SELECT 'user-' || ${userId('u')}, 0, gen_random_uuid(), 'UserRegistered',
    jsonb_build_object('userId', ${userId('u')}, 'email', 'user' || u || '@example.com',
      'firstName', 'User', 'lastName', 'Number ' || u),
    ${metadata(userId('u'), 'u')}
  FROM generate_series(0, $1::int - 1) AS u ORDER BY u`;

/** Five events per bet, the whole life of a money bet, in stream order. */
const insertBets = `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
  SELECT 'bet-' || bet.id, t.step, gen_random_uuid(), t.type, t.data,
    ${metadata('t.actor', '1000000 + b * 10 + t.step')}
  FROM generate_series($1::int, $2::int - 1) AS b
  CROSS JOIN LATERAL (SELECT md5('bet' || b)::uuid AS id,
                             ${userId('b % $3::int')} AS creator,
                             ${userId('(b % $3::int + 1 + b % ($3::int - 1)) % $3::int')} AS opponent) bet
  CROSS JOIN LATERAL (VALUES
    (0, 'BetProposed', jsonb_build_object('betId', bet.id, 'creatorId', bet.creator,
       'opponentId', bet.opponent, 'inviteeEmail', null, 'inviteePhone', null, 'smsConsent', false,
       'title', 'Bet number ' || b, 'description', 'Who runs the faster 10k this spring',
       'wagerType', 'money', 'wagerAmountCents', (b % 500) * 100 + 100, 'wagerDescription', null,
       'endDate', null, 'validationMode', 'both'), bet.creator),
    (1, 'BetAccepted', jsonb_build_object('opponentId', bet.opponent), bet.opponent),
    (2, 'ResolutionSubmitted', jsonb_build_object('party', 'creator', 'userId', bet.creator,
       'resolution', 'creator_won'), bet.creator),
    (3, 'ResolutionSubmitted', jsonb_build_object('party', 'opponent', 'userId', bet.opponent,
       'resolution', 'creator_won'), bet.opponent),
    (4, 'BetCompleted', jsonb_build_object('resolution', 'creator_won', 'winnerId', bet.creator), bet.creator)
  ) AS t(step, type, data, actor)
  ORDER BY b, t.step`;

/**
 * Writes a log of registered users and completed money bets straight into the event table, rows
 * as the PostgreSQL adapter writes them, several writers at once so transactions interleave as in
 * production. Each of a writer's transactions holds several bets (the adapter's would hold one
 * command's events), which only makes the log quicker to write.
 */
export async function writeBetLog(pool: Pool, shape: BetLogShape): Promise<number> {
  await pool.query(insertUsers, [shape.users]);
  const perWriter = Math.ceil(shape.bets / shape.writers);
  const step = shape.betsPerTransaction ?? 50;
  await Promise.all(
    Array.from({ length: shape.writers }, async (_, writer) => {
      const first = writer * perWriter;
      const end = Math.min(shape.bets, first + perWriter);
      for (let from = first; from < end; from += step) {
        await pool.query(insertBets, [from, Math.min(end, from + step), shape.users]);
      }
    }),
  );
  return shape.users + shape.bets * 5;
}
