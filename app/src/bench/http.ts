import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { cpus } from 'node:os';
import { promisify } from 'node:util';
import express from 'express';
import { destination } from 'pino';
import type { CreateBetRequest } from '@wagers/contracts/api/bets';
import type { User } from '@wagers/contracts/api/user';
import { standaloneCommandParts } from '@wagers/command-service/service';
import { loadConfig, type Config } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createLogger, type Logger } from '@wagers/platform/logger';
import { hostService, type RunningHost } from '@wagers/platform/service-host';
import { createTestDatabase } from '@wagers/test-support/database';
import { dropQueueKeys } from '@wagers/test-support/redis';
import { startWagers } from '../server.ts';
import { ApiClient, testRedisUrl } from '../test-support/test-app.ts';
import { ownCpu, serverCpu, serverPolicy } from './cpu.ts';
import type { LoadFigures, LoadOptions } from './load.ts';
import { printTable, type Cell } from './table.ts';

/** How long each figure's load runs in all; BENCH_SECONDS=15 for steadier figures. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = 3;
const BETS = 20;
const GET_CONNECTIONS = 16;
const POST_CONNECTIONS = 8;
const POOL_SIZE = 20;

export const betInput: Omit<CreateBetRequest, 'opponentId'> = {
  title: 'Rain on Sunday',
  description: 'It will rain in Paris on Sunday',
  wagerType: 'money',
  wagerAmount: '12.50',
  validationMode: 'both',
};

const run = promisify(execFile);

/** One load from a separate process (load.ts), so client and server do not share a thread. */
export async function load(options: LoadOptions): Promise<LoadFigures> {
  const script = new URL('./load.ts', import.meta.url).pathname;
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', script, JSON.stringify(options)],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as LoadFigures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** A load's figures, and the CPU each request cost the server loaded and PostgreSQL. */
interface ServerFigures extends LoadFigures {
  /** ms of this process's CPU per request: the server loaded (both live here, the other idles). */
  nodeMs: number;
  /** ms of the machine's `postgres` processes' CPU per request. */
  postgresMs: number;
}

/** One load, with the CPU of this process and of PostgreSQL counted around it. */
async function measured(options: LoadOptions): Promise<ServerFigures> {
  const [node, postgres] = [ownCpu(), (await serverCpu(['postgres'])).get('postgres') ?? 0];
  const figures = await load(options);
  const postgresAfter = (await serverCpu(['postgres'])).get('postgres') ?? 0;
  const requests = Math.max(1, figures.requestsPerSecond * options.seconds);
  return {
    ...figures,
    nodeMs: (ownCpu() - node) / requests,
    postgresMs: (postgresAfter - postgres) / requests,
  };
}

/**
 * Loads the minimal server and the product in turns, `ROUNDS` slices each, so a shared machine's
 * passing load weighs on both alike. Requests per second over all slices; the latencies and CPU
 * per request are the median of the slices' figures.
 */
async function inTurns(
  minimal: LoadOptions,
  product: LoadOptions,
): Promise<[ServerFigures, ServerFigures]> {
  const minimalSlices: ServerFigures[] = [];
  const productSlices: ServerFigures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    minimalSlices.push(await measured(minimal));
    productSlices.push(await measured(product));
  }
  return [combine(minimalSlices), combine(productSlices)];
}

function combine(slices: ServerFigures[]): ServerFigures {
  const sum = (pick: (f: ServerFigures) => number) => slices.reduce((all, f) => all + pick(f), 0);
  return {
    requestsPerSecond: sum((f) => f.requestsPerSecond) / slices.length,
    p50: median(slices.map((f) => f.p50)),
    p99: median(slices.map((f) => f.p99)),
    non2xx: sum((f) => f.non2xx),
    errors: sum((f) => f.errors),
    nodeMs: median(slices.map((f) => f.nodeMs)),
    postgresMs: median(slices.map((f) => f.postgresMs)),
  };
}

const MINIMAL_TABLE = `CREATE TABLE plain_bets (
  id uuid PRIMARY KEY,
  creator_id uuid NOT NULL,
  opponent_id uuid NOT NULL,
  title text NOT NULL,
  description text NOT NULL,
  wager_amount_cents integer NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX plain_bets_creator ON plain_bets (creator_id, created_at DESC)`;

/**
 * The ceiling: Express 5 and node-postgres with nothing else, one table holding the same bets.
 * GET lists a user's bets, POST inserts one.
 */
async function startMinimal(databaseUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const pool = createPool(databaseUrl, POOL_SIZE);
  await pool.query(MINIMAL_TABLE);
  const app = express();
  app.use(express.json());
  app.get('/bets', async (req, res) => {
    const result = await pool.query(
      'SELECT * FROM plain_bets WHERE creator_id = $1 ORDER BY created_at DESC LIMIT 100',
      [typeof req.query.user === 'string' ? req.query.user : ''],
    );
    res.json(result.rows);
  });
  app.post('/bets', async (req, res) => {
    const body = req.body as { creatorId: string; opponentId: string; title: string };
    const result = await pool.query(
      `INSERT INTO plain_bets (id, creator_id, opponent_id, title, description, wager_amount_cents, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending') RETURNING *`,
      [randomUUID(), body.creatorId, body.opponentId, body.title, betInput.description, 1250],
    );
    res.status(201).json(result.rows[0]);
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}

async function person(
  baseUrl: string,
  firstName: string,
): Promise<{ client: ApiClient; user: User }> {
  const client = new ApiClient(baseUrl);
  await client.signIn(`${firstName.toLowerCase()}.${randomBytes(3).toString('hex')}@example.com`);
  await client.put('/api/user', { firstName, lastName: 'Bench' });
  const me = await client.get<User>('/api/auth/user');
  return { client, user: me.body };
}

function expectStatus(response: { status: number; text: string }, status: number): void {
  if (response.status !== status) throw new Error(`${response.status}: ${response.text}`);
}

/** Starts what one process of the product's runs. */
type Start = (config: Config, logger: Logger) => Promise<RunningHost>;

/** A process of the product's on a database, logging at info (to /dev/null) as in service. */
async function startOn(databaseUrl: string, start: Start, env: Record<string, string> = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl,
    QUEUE_PREFIX: `wagers-bench-${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'info',
    DEV_INBOX: 'true',
    // Appends' priority as the environment sets it, to measure it either way (decision 35).
    ...(process.env.APPEND_NICE ? { APPEND_NICE: process.env.APPEND_NICE } : {}),
    ...env,
  });
  const host = await start(config, createLogger(config.LOG_LEVEL, {}, destination('/dev/null')));
  return {
    host,
    stop: async () => {
      await host.stop();
      await dropQueueKeys(testRedisUrl, config.QUEUE_PREFIX);
    },
  };
}

/** The whole product, as `npm start` runs it. */
const startProductOn = (databaseUrl: string, env: Record<string, string> = {}) =>
  startOn(databaseUrl, startWagers, env);

/**
 * The command service alone, as its own process runs it: every mutating route and the process
 * managers, but no projector and no notifier to follow what it appends.
 */
const startCommandServiceOn = (databaseUrl: string) =>
  startOn(databaseUrl, (config, logger) =>
    hostService({ config, logger, migrations: [], parts: standaloneCommandParts }),
  );

/** The product on a fresh database, logging at info (to /dev/null) as it does in service. */
export async function startBenchProduct(prefix: string) {
  const database = await createTestDatabase(prefix);
  const { host: product, stop } = await startProductOn(database.url);
  return {
    database,
    product,
    stop: async () => {
      await stop();
      await database.drop();
    },
  };
}

/** Alice and Bob, signed in, named and friends. */
export async function twoFriends(baseUrl: string) {
  const alice = await person(baseUrl, 'Alice');
  const bob = await person(baseUrl, 'Bob');
  expectStatus(await alice.client.post('/api/friend-requests', { receiverId: bob.user.id }), 201);
  expectStatus(await bob.client.post('/api/friend-requests', { receiverId: alice.user.id }), 201);
  return { alice, bob };
}

/**
 * The product's HTTP API beside a minimal Express + pg server on the same database, both loaded
 * with autocannon in the same run. The product logs at info (to /dev/null) as it does in service.
 */
export async function httpBench(): Promise<void> {
  const { database, product, stop } = await startBenchProduct('wagers_bench_http');
  const minimal = await startMinimal(database.url);
  try {
    const { alice, bob } = await twoFriends(product.url);
    const body = { ...betInput, opponentId: bob.user.id };
    for (let i = 0; i < BETS; i++) expectStatus(await alice.client.post('/api/bets', body), 201);
    const listed = await alice.client.get<unknown[]>('/api/bets');
    if (listed.body.length !== BETS) {
      const stale = listed.headers.get('x-wagers-stale')
        ? ' (answered stale: the read gave up waiting)'
        : '';
      throw new Error(`expected ${BETS} bets, got ${listed.body.length}${stale}`);
    }

    const plainBody = { creatorId: alice.user.id, opponentId: bob.user.id, title: betInput.title };
    const seed = createPool(database.url, 1);
    for (let i = 0; i < BETS; i++) {
      await seed.query(
        `INSERT INTO plain_bets (id, creator_id, opponent_id, title, description, wager_amount_cents, status)
         VALUES ($1, $2, $3, $4, $5, 1250, 'pending')`,
        [randomUUID(), alice.user.id, bob.user.id, betInput.title, betInput.description],
      );
    }
    const policy = await serverPolicy(seed);
    await seed.end();

    const json = { 'content-type': 'application/json' };
    const session = { cookie: alice.client.cookie ?? '' };
    const seconds = SECONDS / ROUNDS;
    /** `GET /api/bets` of a process of the product, in turns with the minimal server's. */
    const gets = (productUrl: string) =>
      inTurns(
        {
          seconds,
          url: `${minimal.url}/bets?user=${alice.user.id}`,
          method: 'GET',
          connections: GET_CONNECTIONS,
          headers: {},
        },
        {
          seconds,
          url: `${productUrl}/api/bets`,
          method: 'GET',
          connections: GET_CONNECTIONS,
          // A browser sends the highest position it has seen: the read waits for the projectors.
          headers: { ...session, 'x-wagers-position': alice.client.position ?? '' },
        },
      );
    const [minimalGet, productGet] = await gets(product.url);
    // The same reads from a second process of the product that keeps no answer (READ_CACHE_MS=0,
    // decision 29): what each read costs when the log keeps moving and no answer can be kept.
    const unkept = await startProductOn(database.url, { READ_CACHE_MS: '0' });
    const [minimalGetAgain, unkeptGet] = await gets(unkept.host.url).finally(() => unkept.stop());
    const minimalPosts: LoadOptions = {
      seconds,
      url: `${minimal.url}/bets`,
      method: 'POST',
      connections: POST_CONNECTIONS,
      headers: json,
      body: JSON.stringify(plainBody),
    };
    /** `POST /api/bets` to a server of the product's. */
    const posts = (url: string): LoadOptions => ({
      seconds,
      url: `${url}/api/bets`,
      method: 'POST',
      connections: POST_CONNECTIONS,
      headers: { ...json, ...session },
      body: JSON.stringify(body),
    });
    const [minimalPost, productPost] = await inTurns(minimalPosts, posts(product.url));
    // The same proposals to the command service alone, once the product has stopped: nothing
    // projects them or sends their notices, so this is what the command itself costs, the
    // ceiling of the whole product's POST.
    await product.stop();
    const alone = await startCommandServiceOn(database.url);
    const [minimalPostAgain, alonePost] = await inTurns(
      minimalPosts,
      posts(alone.host.url),
    ).finally(() => alone.stop());

    const row = (
      scenario: string,
      connections: number,
      ours: ServerFigures,
      plain: ServerFigures,
    ): Cell[] => [
      scenario,
      { value: connections },
      { value: ours.requestsPerSecond },
      { value: ours.p50 },
      { value: ours.p99 },
      { value: ours.non2xx + ours.errors },
      { value: plain.requestsPerSecond },
      { value: plain.p50 },
      { value: plain.p99 },
      { value: ours.requestsPerSecond / plain.requestsPerSecond, digits: 2 },
    ];
    printTable(
      `HTTP API vs minimal Express 5 + pg on the same database, req/s and latency in ms: ` +
        `${cpus().length} CPUs, PostgreSQL under ${policy}, ${SECONDS} s per figure, product logging at info`,
      [
        'request',
        'connections',
        'product/s',
        'p50',
        'p99',
        'failed',
        'minimal/s',
        'p50',
        'p99',
        'ratio',
      ],
      [
        row(`GET /api/bets (${BETS} bets)`, GET_CONNECTIONS, productGet, minimalGet),
        row('GET, no answer kept', GET_CONNECTIONS, unkeptGet, minimalGetAgain),
        row('POST /api/bets', POST_CONNECTIONS, productPost, minimalPost),
        row('POST, the command service alone', POST_CONNECTIONS, alonePost, minimalPostAgain),
      ],
    );
    const cpu = (scenario: string, ours: ServerFigures, plain: ServerFigures): Cell[] => [
      scenario,
      { value: ours.nodeMs, digits: 3 },
      { value: ours.postgresMs, digits: 3 },
      { value: plain.nodeMs, digits: 3 },
      { value: plain.postgresMs, digits: 3 },
      { value: (ours.nodeMs + ours.postgresMs) / (plain.nodeMs + plain.postgresMs), digits: 2 },
    ];
    printTable(
      'CPU ms per request, median of the slices: Node.js (the server loaded; for the product its ' +
        "followers too) and the machine's PostgreSQL processes (everything they did meanwhile)",
      ['request', 'product node', 'postgres', 'minimal node', 'postgres', 'x minimal'],
      [
        cpu(`GET /api/bets (${BETS} bets)`, productGet, minimalGet),
        cpu('GET, no answer kept', unkeptGet, minimalGetAgain),
        cpu('POST /api/bets', productPost, minimalPost),
        cpu('POST, the command service alone', alonePost, minimalPostAgain),
      ],
    );
  } finally {
    await minimal.stop();
    await stop();
  }
}
