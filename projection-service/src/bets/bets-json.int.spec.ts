import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { betSchema, type Bet } from '@wagers/contracts/api/bets';
import { userSchema, type User } from '@wagers/contracts/api/user';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { genericPlanScans } from '@wagers/test-support/plans';
import { noting, statementLog } from '@wagers/test-support/statements';
import { readModelMigrations } from '../migrations.ts';
import { usersSchema } from '../users/users.schema.ts';
import { betsSchema } from './bets.schema.ts';
import { FIND_BET, findBet, LIST_BETS, listBets } from './queries.ts';

const alice = '5dfbaf10-165e-4427-b016-35cabfeb9463';
const bob = 'd291d76e-c243-45e6-88cb-2dc0e50fdbbb';
const gone = '11111111-1111-1111-1111-111111111111';
const notYetKnown = '33333333-3333-3333-3333-333333333333';

const aliceUser: User = {
  id: alice,
  firstName: 'Alice',
  lastName: 'Bench',
  email: 'alice@example.com',
  profileImageUrl: null,
  createdAt: '2026-01-02T03:04:05.678Z',
};
const bobUser: User = {
  id: bob,
  firstName: 'Bö "the \\ best"\n\t\u0001 🎲',
  lastName: '日本\u2028',
  email: 'b"o\\b@example.com',
  profileImageUrl: 'https://pictures.example/b.png?a=1&b=<2>',
  createdAt: '1999-12-31T18:59:59.000Z',
};
const goneUser: User = {
  id: gone,
  firstName: null,
  lastName: null,
  email: 'gone@example.com',
  profileImageUrl: null,
  createdAt: '2020-01-02T03:04:05.999Z',
  deleted: true,
};

const bets = {
  custom: 'a1111111-1111-1111-1111-111111111111',
  invite: 'a2222222-2222-2222-2222-222222222222',
  fromBob: 'a3333333-3333-3333-3333-333333333333',
  deleted: 'a5555555-5555-5555-5555-555555555555',
};

const base = {
  description: 'd',
  wagerDescription: null,
  endDate: null,
  creatorResolution: null,
  opponentResolution: null,
  winnerId: null,
  winner: null,
  invitee: null,
} as const;

/** The fields in the order the contract lists them, as `res.json` of the old row mapping sent them. */
function inOrder(bet: Bet): Bet {
  const user = (u: User | null) =>
    u &&
    (Object.fromEntries(
      Object.keys(userSchema.shape).flatMap((k) => (k in u ? [[k, u[k as keyof User]]] : [])),
    ) as User);
  const ordered = Object.fromEntries(
    Object.keys(betSchema.shape).map((key) => [key, bet[key as keyof Bet]]),
  ) as Bet;
  return {
    ...ordered,
    creator: user(ordered.creator)!,
    opponent: user(ordered.opponent),
    winner: user(ordered.winner),
  };
}

/** What the viewer sees of each bet, newest first. */
const expected = (viewer: string): Bet[] => [
  {
    ...base,
    id: bets.fromBob,
    title: 'Dinner on it',
    wagerType: 'money',
    wagerAmount: '0.05',
    wagerAmountCents: 5,
    validationMode: 'one',
    status: 'active',
    creatorId: bob,
    opponentId: alice,
    creator: bobUser,
    opponent: aliceUser,
    winnerId: gone,
    winner: goneUser,
    invitee: viewer === bob ? 'x@example.com' : null,
    createdAt: '2024-05-06T07:08:09.500Z',
    updatedAt: '2024-05-06T07:08:09.000Z',
  },
  {
    ...base,
    id: bets.custom,
    title: 'T "x" \\ \n 🎲 \u2028',
    wagerType: 'custom',
    wagerAmount: null,
    wagerAmountCents: null,
    wagerDescription: 'a dinner',
    endDate: '2027-02-03',
    validationMode: 'both',
    status: 'resolved',
    creatorId: alice,
    opponentId: bob,
    creator: aliceUser,
    opponent: bobUser,
    creatorResolution: 'creator_won',
    opponentResolution: 'creator_won',
    winnerId: alice,
    winner: aliceUser,
    invitee: viewer === alice ? 'inv@example.com' : null,
    createdAt: '2024-05-06T07:08:09.123Z',
    updatedAt: '2024-05-06T07:08:09.000Z',
  },
  {
    ...base,
    id: bets.invite,
    title: 't',
    wagerType: 'money',
    wagerAmount: '1000000000.07',
    wagerAmountCents: 100000000007,
    validationMode: 'one',
    status: 'pending',
    creatorId: alice,
    opponentId: notYetKnown,
    creator: aliceUser,
    opponent: {
      id: notYetKnown,
      firstName: null,
      lastName: null,
      email: null,
      profileImageUrl: null,
      createdAt: '2024-05-06T07:08:09.000Z',
    },
    invitee: viewer === alice ? '+15550000' : null,
    createdAt: '2024-05-06T07:08:09.000Z',
    updatedAt: '2024-05-06T07:08:09.000Z',
  },
];

/** A database with the users' and bets' tables as a live build holds them, found before the read views. */
async function liveBuild(): Promise<{ database: TestDatabase; pool: pg.Pool }> {
  const database = await createTestDatabase();
  await migrate(database.url, [platformMigrations, readModelMigrations]);
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 2,
    options: '-c search_path=live_build,public',
  });
  await pool.query('CREATE SCHEMA live_build');
  await pool.query(usersSchema.tables + betsSchema.tables);
  await pool.query(usersSchema.indexes + betsSchema.indexes);
  return { database, pool };
}

/** The users and bets `expected` describes, written as a live build holds them. */
async function insertSample(pool: pg.Pool): Promise<void> {
  await pool.query(
    `INSERT INTO rm_users (id, email, first_name, last_name, profile_image_url, created_at,
                           deleted_at, revision)
     VALUES ($1, 'alice@example.com', 'Alice', 'Bench', NULL, '2026-01-02 03:04:05.678912+00', NULL, 1),
            ($2, $3, $4, $5, $6, '1999-12-31 23:59:59.0005+05', NULL, 1),
            ($7, 'gone@example.com', NULL, NULL, NULL, '2020-01-02 03:04:05.999999+00', '2021-01-01', 1)`,
    [alice, bob, bobUser.email, bobUser.firstName, bobUser.lastName, bobUser.profileImageUrl, gone],
  );
  await pool.query(
    `INSERT INTO rm_bets (id, seq, title, description, wager_type, wager_amount_cents,
       wager_description, end_date, validation_mode, status, creator_id, opponent_id, invitee,
       invite_code, creator_resolution, opponent_resolution, winner_id, created_at, updated_at,
       revision)
     VALUES ($1, 1, $5, 'd', 'custom', NULL, 'a dinner', '2027-02-03', 'both', 'resolved', $6, $7,
             'inv@example.com', 'c1', 'creator_won', 'creator_won', $6, '2024-05-06 07:08:09.123456+00',
             '2024-05-06 07:08:09.000001+00', 1),
            ($2, 2, 't', 'd', 'money', 100000000007, NULL, NULL, 'one', 'pending', $6, $8,
             '+15550000', 'c2', NULL, NULL, NULL, '2024-05-06 07:08:09+00', '2024-05-06 07:08:09+00', 1),
            ($3, 3, 'Dinner on it', 'd', 'money', 5, NULL, NULL, 'one', 'active', $7, $6,
             'x@example.com', 'c3', NULL, NULL, $9, '2024-05-06 07:08:09.5+00', '2024-05-06 07:08:09+00', 1),
            ($4, 4, 't', 'd', 'money', 5, NULL, NULL, 'one', 'deleted', $6, $7, NULL, NULL,
             NULL, NULL, NULL, '2024-05-06 07:08:10+00', '2024-05-06 07:08:10+00', 1)`,
    [
      bets.custom,
      bets.invite,
      bets.fromBob,
      bets.deleted,
      'T "x" \\ \n 🎲 \u2028',
      alice,
      bob,
      notYetKnown,
      gone,
    ],
  );
}

/** Each viewer's list, and each bet they take part in, are what res.json would send of `expected`. */
async function expectEachBetAsResJsonSends(pool: pg.Pool): Promise<void> {
  for (const viewer of [alice, bob]) {
    const mine = expected(viewer)
      .filter((bet) => bet.creatorId === viewer || bet.opponentId === viewer)
      .map(inOrder);
    expect((await listBets(pool, viewer)).value).toBe(JSON.stringify(mine));
    for (const bet of mine)
      expect((await findBet(pool, viewer, bet.id))?.value).toBe(JSON.stringify(bet));
  }
}

describe('the bets JSON PostgreSQL builds', () => {
  let database: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    ({ database, pool } = await liveBuild());
    await insertSample(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('is, byte for byte, what res.json would send of each bet, for each viewer', async () => {
    await expectEachBetAsResJsonSends(pool);
  });

  it("follows a bet's row when it changes: its own fields are kept as text made on each write", async () => {
    const before = await pool.query<{ status: string; updated_at: Date }>(
      'SELECT status, updated_at FROM rm_bets WHERE id = $1',
      [bets.invite],
    );
    await pool.query(
      `UPDATE rm_bets SET title = $2, status = 'active', updated_at = '2025-01-02 03:04:05.678+00'
        WHERE id = $1`,
      [bets.invite, 'Now "active"'],
    );
    try {
      const shown = JSON.parse((await findBet(pool, alice, bets.invite))!.value) as Bet;
      expect(shown).toMatchObject({
        title: 'Now "active"',
        status: 'active',
        updatedAt: '2025-01-02T03:04:05.678Z',
      });
    } finally {
      await pool.query(
        `UPDATE rm_bets SET title = 't', status = $2, updated_at = $3 WHERE id = $1`,
        [bets.invite, before.rows[0]!.status, before.rows[0]!.updated_at],
      );
    }
  });

  it('is an empty list, and no bet, for someone who takes part in none', async () => {
    expect((await listBets(pool, gone)).value).toBe('[]');
    expect(await findBet(pool, gone, bets.custom)).toBeNull();
    expect(await findBet(pool, alice, bets.deleted)).toBeNull();
    expect(await findBet(pool, alice, 'not-a-bet-id')).toBeNull();
  });
});

describe('the bets statements over many users and bets', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  const someone = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

  beforeAll(async () => {
    ({ database, pool } = await liveBuild());
    await pool.query(
      `INSERT INTO rm_users (id, email, first_name, last_name, created_at, revision)
       SELECT ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'u' || g || '@example.com',
              'F', 'L', now(), 1
         FROM generate_series(0, 4999) AS g`,
    );
    // 400 people with about 25 bets each, against others among them.
    await pool.query(
      `INSERT INTO rm_bets (id, seq, title, description, wager_type, wager_amount_cents,
         validation_mode, status, creator_id, opponent_id, created_at, updated_at, revision)
       SELECT gen_random_uuid(), g, 't', 'd', 'money', 5, 'one', 'pending',
              ('00000000-0000-4000-8000-' || lpad((g % 400)::text, 12, '0'))::uuid,
              ('00000000-0000-4000-8000-' || lpad((g * 7 % 400)::text, 12, '0'))::uuid,
              now() - g * interval '1 minute', now(), 1
         FROM generate_series(1, 5000) AS g`,
    );
    await pool.query('ANALYZE rm_users; ANALYZE rm_bets');
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  // The statements are prepared, and PostgreSQL soon plans them once for any viewer: such a plan
  // must still read the viewer's bets and the people they name by index, not whole tables.
  it.each(
    [LIST_BETS, FIND_BET].flatMap((statement) =>
      [statement.prerendered, statement.inline].map(
        ({ name, text }) =>
          [
            name,
            text,
            `'${someone(5)}'${text.includes('$2') ? ', gen_random_uuid()' : ''}`,
          ] as const,
      ),
    ),
  )('%s reads by index, whatever the viewer', async (_name, text, values) => {
    const client = await pool.connect();
    try {
      const types = `uuid${text.includes('$2') ? ', uuid' : ''}`;
      const scans = await genericPlanScans(client, text, types, values);
      for (const table of ['rm_bets', 'rm_users']) {
        expect(scans(table).length, table).toBeGreaterThan(0);
        expect(scans(table), table).not.toContain('Seq Scan');
      }
    } finally {
      client.release();
    }
  });

  it('lists every bet the viewer takes part in, with the people named', async () => {
    const listed = JSON.parse((await listBets(pool, someone(5))).value) as Bet[];
    const counted = await pool.query<{ count: string }>(
      'SELECT count(*) FROM rm_bets WHERE creator_id = $1 OR opponent_id = $1',
      [someone(5)],
    );
    expect(listed).toHaveLength(Number(counted.rows[0]!.count));
    expect(listed.length).toBeGreaterThan(0);
    for (const bet of listed) {
      expect(bet.creator.id).toBe(bet.creatorId);
      expect(bet.creator.email).toBe(`u${Number(bet.creatorId.slice(-12))}@example.com`);
      expect(bet.opponent?.email).toBe(`u${Number(bet.opponentId!.slice(-12))}@example.com`);
    }
  });
});

describe('the bets JSON from a live build made before bets kept their own fields as text', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let kept: { name: string; expression: string }[];
  const statements = statementLog();
  let reads: pg.Pool;

  // On a new database until the first build of this version is switched to, and during a deploy
  // that raises the bets version until the new build is, a build the previous code made serves
  // reads: they make the same JSON in the query instead.
  beforeAll(async () => {
    ({ database, pool } = await liveBuild());
    kept = (
      await pool.query<{ name: string; expression: string }>(
        `SELECT a.attname AS name, pg_get_expr(d.adbin, d.adrelid) AS expression
           FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE a.attrelid = 'rm_bets'::regclass AND a.attname LIKE 'json\\_%' ORDER BY a.attnum`,
      )
    ).rows;
    expect(kept.map(({ name }) => name)).toEqual(['json_start', 'json_resolutions', 'json_times']);
    await pool.query(
      `ALTER TABLE rm_bets ${kept.map(({ name }) => `DROP COLUMN ${name}`).join(', ')}`,
    );
    await insertSample(pool);
    reads = noting(pool, statements);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('is, byte for byte, what the newer build answers, and no read fails to find that out', async () => {
    await expectEachBetAsResJsonSends(reads);
    expect(statements.refused).toEqual([]);
    expect(statements.sent).toContain(LIST_BETS.inline.name);
    expect(statements.sent).not.toContain(LIST_BETS.prerendered.name);
  });

  it('reads the JSON the live build keeps within a second of a switch to a build that keeps it', async () => {
    await pool.query(
      `ALTER TABLE rm_bets ${kept
        .map(
          ({ name, expression }) =>
            `ADD COLUMN ${name} text NOT NULL GENERATED ALWAYS AS (${expression}) STORED`,
        )
        .join(', ')}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    statements.sent.length = 0;
    await expectEachBetAsResJsonSends(reads);
    expect(statements.refused).toEqual([]);
    expect(statements.sent).toContain(LIST_BETS.prerendered.name);
    expect(statements.sent).toContain(FIND_BET.prerendered.name);
    expect(statements.sent).not.toContain(LIST_BETS.inline.name);
  });
});
