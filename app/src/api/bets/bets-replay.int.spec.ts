import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, CreateBetResponse } from '@wagers/contracts/api/bets';
import { createPool } from '@wagers/platform/db';
import type { EventStore } from '@wagers/platform/event-store/port';
import { loadConfig } from '@wagers/platform/config';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { createLogger } from '@wagers/platform/logger';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { befriend, betInput, person, proposeTo, sync, type Person } from './http-fixtures.ts';
import { rebuildProjector } from '@wagers/projection-service/operator/projections';
import { allProjectors } from '@wagers/projection-service/projectors';
import { betsProjector } from '@wagers/projection-service/bets/bets.projector';
import { applyToLiveBuild } from '@wagers/platform/projections/apply-to-live';
import { readLiveBuild } from '@wagers/platform/projections/checkpoints';

const cli = createRequire(import.meta.url).resolve('@wagers/projection-service/cli');
const run = promisify(execFile);

let app: TestApp;
let pool: ReturnType<typeof createPool>;
let store: EventStore;
let people: Person[];
const betIds: string[] = [];

/** Everything the bets API answers, for every person and every bet (deleted ones included). */
async function everything(): Promise<unknown> {
  const views: Record<string, unknown> = {};
  for (const who of people) {
    const me = who.user.firstName ?? '';
    views[`${me} /api/bets`] = (await who.client.get('/api/bets')).body;
    views[`${me} /api/stats`] = (await who.client.get('/api/stats')).body;
    for (const id of betIds) {
      const bet = await who.client.get(`/api/bets/${id}`);
      const history = await who.client.get(`/api/bets/${id}/history`);
      views[`${me} ${id}`] = [bet.status, bet.body, history.status, history.body];
    }
  }
  return views;
}

beforeAll(async () => {
  app = await startTestApp();
  pool = createPool(app.databaseUrl, 4);
  store = createEventStore(loadConfig({}), pool, app.databaseUrl);
  const [alice, bob, carol] = [
    await person(app, 'Alice'),
    await person(app, 'Bob'),
    await person(app, 'Carol'),
  ];
  people = [alice, bob, carol];
  await befriend(alice, bob);
  await befriend(bob, carol);
  const accept = (who: Person, bet: Bet) => who.client.post(`/api/bets/${bet.id}/accept`);
  const resolve = (who: Person, bet: Bet, resolution: string) =>
    who.client.post(`/api/bets/${bet.id}/resolve`, { resolution });

  const pending = await proposeTo(alice, bob, { title: 'Pending', endDate: '2999-01-01' });
  const declined = await proposeTo(alice, bob, { title: 'Declined' });
  await bob.client.post(`/api/bets/${declined.id}/decline`);
  const deleted = await proposeTo(bob, carol, { title: 'Deleted' });
  await bob.client.delete(`/api/bets/${deleted.id}`);
  const disputed = await proposeTo(bob, carol, { title: 'Disputed', wagerAmount: '0.99' });
  await accept(carol, disputed);
  await resolve(bob, disputed, 'creator_won');
  await resolve(carol, disputed, 'opponent_won');
  const completed = await proposeTo(alice, bob, {
    title: 'Completed',
    wagerType: 'custom',
    wagerAmount: null,
    wagerDescription: 'Lunch',
  });
  await accept(bob, completed);
  await resolve(alice, completed, 'draw');
  await resolve(bob, completed, 'draw');
  const decidedByOne = await proposeTo(carol, bob, { title: 'Mode one', validationMode: 'one' });
  await accept(bob, decidedByOne);
  await resolve(bob, decidedByOne, 'opponent_won');
  const invited = await alice.client.post<CreateBetResponse>(
    '/api/bets',
    betInput({ title: 'Newcomer', inviteeEmail: 'dora@example.com' }),
  );
  const dora = { client: await app.signIn('dora@example.com') } as Person;
  await dora.client.post(`/api/invites/${invited.body.invite?.code ?? ''}/accept`);
  dora.user = (await dora.client.get<Person['user']>('/api/auth/user')).body;
  people.push(dora);
  const waiting = await alice.client.post<CreateBetResponse>(
    '/api/bets',
    betInput({ title: 'Still invited', inviteePhone: '+14155550123', smsConsent: true }),
  );
  betIds.push(
    ...[
      pending,
      declined,
      deleted,
      disputed,
      completed,
      decidedByOne,
      invited.body,
      waiting.body,
    ].map((bet) => bet.id),
  );
  sync(...people);
});
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await app?.stop();
});

describe('replay', () => {
  it('rebuilds every read model from the log next to the live one, and the API answers exactly as before', async () => {
    const before = await everything();
    const logger = createLogger('silent');
    for (const projector of allProjectors) {
      const previous = await readLiveBuild(pool, projector.name);
      const result = await rebuildProjector(projector, {
        pool,
        store,
        connectionString: app.databaseUrl,
        logger,
        pollMs: 50,
      });
      // A new build next to the old one, and reads switched to it.
      expect(result).toMatchObject({ resumed: false, outcome: 'switched' });
      expect(result.build).toBeGreaterThan(previous!.build);
      expect((await readLiveBuild(pool, projector.name))?.build).toBe(result.build);
    }
    const rows = await pool.query<{ n: string }>('SELECT count(*) AS n FROM rm_bets');
    expect(Number(rows.rows[0]?.n)).toBe(betIds.length);
    expect(await everything()).toEqual(before);
  });

  it('applying every bet event a second time changes nothing', async () => {
    const before = await everything();
    const events = (await store.readAll({ maxCount: 10_000 })).filter((event) =>
      event.streamId.startsWith('bet-'),
    );
    expect(events.length).toBeGreaterThan(20);
    await applyToLiveBuild(pool, betsProjector, events);
    // And one event at a time, each in a page of its own.
    for (const event of events) await applyToLiveBuild(pool, betsProjector, [event]);
    expect(await everything()).toEqual(before);
  });
});

describe('projections CLI', () => {
  const env = () => ({ ...process.env, DATABASE_URL: app.databaseUrl, LOG_LEVEL: 'silent' });

  it('status shows each projector, its checkpoint and its lag', async () => {
    const { stdout } = await run('npx', ['tsx', cli, 'status'], { env: env() });
    expect(stdout).toMatch(/^head of the log: \d+-\d+/);
    for (const projector of allProjectors)
      expect(stdout).toMatch(
        new RegExp(
          `^${projector.name}\\s+\\d+\\s+${projector.version}\\s+live\\s+\\d+-\\d+\\s+\\d+\\s+0\\s`,
          'm',
        ),
      );
  });

  it('rebuild <name> replays one projector and reports when it has caught up', async () => {
    const before = await everything();
    const { stdout } = await run('npx', ['tsx', cli, 'rebuild', 'bets'], { env: env() });
    expect(stdout).toMatch(/^bets build \d+ \[#{30}\] 100% [\d,]+\/[\d,]+ events/m);
    expect(stdout).toMatch(
      /^bets build \d+, built from the start of the log, is live: reads switched to it\.$/m,
    );
    expect(await everything()).toEqual(before);
  });

  it('names the projectors it knows when given another', async () => {
    const failed = await run('npx', ['tsx', cli, 'rebuild', 'nope'], { env: env() }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('Known: users');
  });
});
