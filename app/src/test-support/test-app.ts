import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { comparePositions } from '@wagers/contracts/position';
import { SESSION_COOKIE } from '@wagers/platform/auth/sessions';
import { loadConfig, type Config } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import { createLogger } from '@wagers/platform/logger';
import type { Runtime } from '@wagers/platform/runtime';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { eventually } from '@wagers/test-support/log';
import { dropQueueKeys } from '@wagers/test-support/redis';
import { startWagers, type RunningWagers } from '../server.ts';
import { checkAgainstDocument } from './api-contract.ts';

export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A queue prefix of a test's own, so its jobs and keys never meet another test's. */
export const testQueuePrefix = (): string => `wagers-test-${randomBytes(4).toString('hex')}`;

/**
 * The configuration a test's process runs with: the test's database, the real Redis under the
 * test's queue prefix, a port of the system's choosing, and `env` over that.
 */
export function testConfig(
  databaseUrl: string,
  queuePrefix: string,
  env: Record<string, string> = {},
): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  });
}

export interface TestApp extends RunningWagers {
  database: TestDatabase;
  /** Signs a person in through the real email-link flow; returns a client carrying their cookie. */
  signIn(email: string, options?: { plain?: boolean }): Promise<ApiClient>;
  /** A client with no session. */
  anonymous(): ApiClient;
  /**
   * Waits until every follower of the log (projectors, process managers, the dispatcher) has
   * reached its head and the head stopped moving: everyone's view then shows everything.
   */
  settled(timeoutMs?: number): Promise<void>;
  /** Settled, and every queued job (emails, texts, deadlines) done, as the operators' metrics show it. */
  drained(): Promise<void>;
  /**
   * Runs `body` while the followers of the log (projectors, process managers) are held back: an
   * open transaction with an id holds the log's horizon until `body` is done.
   */
  holdingFollowers<T>(body: () => Promise<T>): Promise<T>;
}

/**
 * The whole product on a random port against a fresh database on the real PostgreSQL and the real
 * Redis (its own queue prefix). Extra settings go in `env` (e.g. SMTP_URL).
 */
export async function startTestApp(
  options: { env?: Record<string, string>; runtime?: Runtime } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const queuePrefix = testQueuePrefix();
  const config = testConfig(database.url, queuePrefix, {
    DEV_INBOX: 'true',
    // Tests check what is shown, not how fast: a machine loaded by other work must not turn a
    // slow projection into a missing row.
    READ_YOUR_WRITES_TIMEOUT_MS: '15000',
    // Appends' priority as the environment sets it, to measure it either way (decision 35).
    ...(process.env.APPEND_NICE ? { APPEND_NICE: process.env.APPEND_NICE } : {}),
    ...options.env,
  });
  let running: RunningWagers;
  try {
    running = await startWagers(config, createLogger(config.LOG_LEVEL), options.runtime);
  } catch (error) {
    await database.drop();
    throw error;
  }
  const app: TestApp = {
    ...running,
    database,
    async stop() {
      await running.stop();
      await database.drop();
      await dropQueueKeys(config.REDIS_URL ?? testRedisUrl, config.QUEUE_PREFIX);
    },
    anonymous: () => new ApiClient(running.url),
    async settled(timeoutMs = 20_000) {
      const pool = createPool(database.url, 2);
      const store = createEventStore(config, pool, database.url);
      // The newest committed event, even while an open transaction keeps it from followers: the
      // store's own head stops at what followers may read yet, which would end the wait early.
      const newest = async () => {
        if (config.EVENT_STORE !== 'postgres') return store.headPosition();
        const row = (
          await pool.query<{ major: string; minor: string }>(
            `SELECT transaction_id::text AS major, global_position::text AS minor FROM es_events
             ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
          )
        ).rows[0];
        return row ? `${row.major}-${row.minor}` : null;
      };
      try {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const head = await newest();
          const followers = (await readBuilds(pool)).filter((row) => row.status !== 'retired');
          const behind = followers.filter(
            (row) => head && (!row.position || comparePositions(row.position, head) < 0),
          );
          if (behind.length === 0 && (await newest()) === head) return;
          if (Date.now() > deadline) {
            throw new Error(`followers still behind ${head}: ${behind.map((r) => r.name).join()}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await store.close();
        await pool.end();
      }
    },
    async drained() {
      await app.settled();
      await eventually(async () => {
        const metrics = await (await fetch(`${running.url}/metrics`)).text();
        return ['waiting', 'active', 'delayed'].every((state) =>
          metrics.includes(`wagers_queue_jobs{state="${state}"} 0`),
        );
      }, 'an empty notification queue');
    },
    async holdingFollowers(body) {
      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query('SELECT pg_current_xact_id()');
        return await body();
      } finally {
        await blocker.query('ROLLBACK');
        await blocker.end();
      }
    },
    async signIn(email, options = {}) {
      const client = new ApiClient(running.url, !options.plain);
      await client.signIn(email);
      return client;
    },
  };
  return app;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A caller of the HTTP API as a browser would be: keeps its session cookie and the highest log
 * position it has seen, and sends that position on every GET. A plain client (`sendsPosition`
 * false) keeps the cookie and nothing else, as curl or a script would.
 */
export class ApiClient {
  /** Every cookie the product set, by name (paths are not modelled). */
  private readonly cookies = new Map<string, string>();
  position: string | null = null;

  /** The session cookie as `name=value`, or null when signed out. */
  get cookie(): string | null {
    const value = this.cookies.get(SESSION_COOKIE);
    return value ? `${SESSION_COOKIE}=${value}` : null;
  }
  set cookie(pair: string | null) {
    if (pair) this.cookies.set(SESSION_COOKIE, pair.slice(pair.indexOf('=') + 1));
    else this.cookies.delete(SESSION_COOKIE);
  }

  constructor(
    readonly baseUrl: string,
    readonly sendsPosition = true,
  ) {}

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookies.size > 0
          ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') }
          : {}),
        ...(this.sendsPosition && this.position && method === 'GET'
          ? { 'x-wagers-position': this.position }
          : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    // In order, as a browser does: switching accounts clears one session cookie and sets another.
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const index = pair.indexOf('=');
      const value = pair.slice(index + 1);
      if (value) this.cookies.set(pair.slice(0, index), value);
      else this.cookies.delete(pair.slice(0, index));
    }
    const position = response.headers.get('x-wagers-position');
    if (position && (!this.position || comparePositions(position, this.position) > 0))
      this.position = position;
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (an HTML page): keep the text.
    }
    checkAgainstDocument(
      method,
      path,
      response.status,
      response.headers.get('content-type') ?? '',
      parsed,
    );
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
  put<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }
  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }

  /** Asks for a sign-in link, finds it in the development inbox and follows it. */
  async signIn(email: string): Promise<void> {
    const confirmed = await this.confirmLink(await this.askSignInLink(email));
    if (confirmed.status !== 303 || !this.cookie)
      throw new Error(`sign-in link failed: ${confirmed.status}`);
  }

  /** Asks for a sign-in link to `email` and returns it, from the development inbox. */
  async askSignInLink(email: string): Promise<string> {
    const before = new Set(await mailLinks(this.baseUrl, email));
    const asked = await this.post('/api/login/email', { email });
    if (asked.status !== 202)
      throw new Error(`sign-in link refused: ${asked.status} ${asked.text}`);
    return waitForMailLink(this.baseUrl, email, before);
  }

  /** Opens a sign-in link and confirms it, as the person does on the page the link lands on. */
  async confirmLink(link: string): Promise<ApiResponse> {
    const url = new URL(link);
    const page = await this.get(url.pathname + url.search);
    if (page.status !== 200) return page;
    return this.post('/api/login/verify', { token: url.searchParams.get('token') });
  }
}

/** Sign-in links in the development inbox for `email`, newest first. */
export async function mailLinks(baseUrl: string, email: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/api/dev/mail`);
  const mails = (await response.json()) as { to: string; text: string }[];
  return mails
    .filter((mail) => mail.to === email.toLowerCase())
    .map((mail) => /(https?:\/\/\S+\/api\/login\/verify\?token=[\w-]+)/.exec(mail.text)?.[1])
    .filter((link): link is string => Boolean(link));
}

/** Waits (up to 10 s) for a sign-in email to `email` with a link not in `seen`, and returns the link. */
export async function waitForMailLink(
  baseUrl: string,
  email: string,
  seen = new Set<string>(),
): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const link = (await mailLinks(baseUrl, email)).find((candidate) => !seen.has(candidate));
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no sign-in email reached ${email}`);
}
