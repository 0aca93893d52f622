import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions } from '@wagers/contracts/position';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { befriend, person, proposeTo, sync, type Person } from '../bets/http-fixtures.ts';
import { createPool } from '@wagers/platform/db';
import type { EventStore } from '@wagers/platform/event-store/port';
import { loadConfig } from '@wagers/platform/config';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { createLogger } from '@wagers/platform/logger';
import { readLiveBuild } from '@wagers/platform/projections/checkpoints';
import { betsProjector } from '@wagers/projection-service/bets/bets.projector';
import { writeBetLog } from '@wagers/projection-service/test-support/bet-log';
import { rebuildProjector } from '@wagers/projection-service/operator/projections';

let app: TestApp;
let pool: ReturnType<typeof createPool>;
let store: EventStore;
let people: Person[];
/** What each read answers before the rebuild: path and body, per person. */
const expected = new Map<Person, Map<string, unknown>>();

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
  const bets = [
    await proposeTo(alice, bob, { title: 'Pending' }),
    await proposeTo(bob, carol, { title: 'Accepted' }),
    await proposeTo(carol, bob, { title: 'Resolved', validationMode: 'one' }),
    await proposeTo(alice, bob, { title: 'Declined' }),
  ];
  await carol.client.post(`/api/bets/${bets[1]!.id}/accept`);
  await bob.client.post(`/api/bets/${bets[2]!.id}/accept`);
  await bob.client.post(`/api/bets/${bets[2]!.id}/resolve`, { resolution: 'opponent_won' });
  await bob.client.post(`/api/bets/${bets[3]!.id}/decline`);
  sync(...people);
  // Everyone else's bets, so the rebuild has a log of some length to read.
  await writeBetLog(pool, { users: 200, bets: 6_000, writers: 8 });
  const head = (await store.headPosition())!;
  for (let caughtUp = false; !caughtUp;) {
    const live = await readLiveBuild(pool, 'bets');
    caughtUp = live?.position != null && comparePositions(live.position, head) >= 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const who of people) {
    const views = new Map<string, unknown>();
    const list = await who.client.get<{ id: string }[]>('/api/bets');
    views.set('/api/bets', list.body);
    for (const bet of list.body) {
      views.set(`/api/bets/${bet.id}`, (await who.client.get(`/api/bets/${bet.id}`)).body);
    }
    expected.set(who, views);
  }
});
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await app?.stop();
});

describe('a rebuild while people read', () => {
  it('never answers with a missing or partial picture, before, during or after the switch', async () => {
    const before = (await readLiveBuild(pool, 'bets'))!;
    let rebuilding = true;
    let readsDuringRebuild = 0;
    const wrong: string[] = [];
    const readers = people.map(async (who) => {
      const views = expected.get(who)!;
      while (rebuilding) {
        for (const [path, body] of views) {
          const answer = await who.client.get(path);
          if (answer.status !== 200 || JSON.stringify(answer.body) !== JSON.stringify(body))
            wrong.push(`${who.user.firstName} ${path}: ${answer.status} ${answer.text}`);
          if (rebuilding) readsDuringRebuild += 1;
        }
      }
    });
    const result = await rebuildProjector(betsProjector, {
      pool,
      store,
      connectionString: app.databaseUrl,
      logger: createLogger('silent'),
      pageSize: 500,
      pollMs: 20,
    });
    rebuilding = false;
    await Promise.all(readers);

    expect(result.outcome).toBe('switched');
    expect((await readLiveBuild(pool, 'bets'))?.build).toBe(result.build);
    expect(result.build).toBeGreaterThan(before.build);
    expect(readsDuringRebuild).toBeGreaterThan(20);
    expect(wrong).toEqual([]);
    // And after the switch, the same answers from the new build.
    for (const who of people) {
      for (const [path, body] of expected.get(who)!) {
        expect((await who.client.get(path)).body).toEqual(body);
      }
    }
  }, 360_000);
});
