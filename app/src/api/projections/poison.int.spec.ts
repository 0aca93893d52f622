import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet } from '@wagers/contracts/api/bets';
import { operatorProjectionsStream } from '@wagers/contracts/events/projection';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { befriend, person, proposeTo, type Person } from '../bets/http-fixtures.ts';
import { createPool } from '@wagers/platform/db';
import type { EventStore } from '@wagers/platform/event-store/port';
import { loadConfig } from '@wagers/platform/config';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';
import { betsProjector } from '@wagers/projection-service/bets/bets.projector';

const cli = createRequire(import.meta.url).resolve('@wagers/projection-service/cli');
const run = promisify(execFile);

let app: TestApp;
let pool: ReturnType<typeof createPool>;
let store: EventStore;
let alice: Person;
let bob: Person;

function projections(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: { ...process.env, DATABASE_URL: app.databaseUrl, LOG_LEVEL: 'silent' },
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
}

async function until<T>(what: string, look: () => Promise<T | null | undefined | false>) {
  for (let i = 0; i < 200; i++) {
    const found = await look();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

beforeAll(async () => {
  app = await startTestApp();
  pool = createPool(app.databaseUrl, 2);
  store = createEventStore(loadConfig({}), pool, app.databaseUrl);
  [alice, bob] = [await person(app, 'Alice'), await person(app, 'Bob')];
  await befriend(alice, bob);
});
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await app?.stop();
});

describe('an event a projector cannot apply', () => {
  it('stops that projector alone, shows where and why, and is passed over only by an explicit, recorded skip', async () => {
    // A proposal without its fields: the bets projector cannot read it.
    const broken = sampleEvent('BetProposed', { betId: 'broken' });
    const poison = await store.appendToStream(`bet-${randomUUID()}`, [broken], {
      expectedRevision: 'no_stream',
    });
    const after = await proposeTo(alice, bob, { title: 'Made after the broken one' });

    const status = await until('status to show the stop', async () => {
      const { stdout } = await projections('status');
      return stdout.includes('stopped at') && stdout;
    });
    expect(status).toMatch(
      new RegExp(`^bets\\s+\\d+\\s+${betsProjector.version}\\s+live, stopped\\s`, 'm'),
    );
    expect(status).toContain(`stopped at ${poison.position} (event ${broken.id}): `);
    expect(status).toContain('skip NAME POSITION');
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(
      new RegExp(
        `wagers_projection_stopped\\{projector="bets",build="\\d+",position="${poison.position}",event_id="${broken.id}",error="(?:[^"\\\\]|\\\\.)*invalid_type(?:[^"\\\\]|\\\\.)*"\\} 1`,
      ),
    );

    // The other projectors go on: a new person signs in and sees their own profile.
    const carol = await person(app, 'Carol');
    expect(carol.user.firstName).toBe('Carol');
    // Bets wait at the broken event: the new bet is not there yet, and the answer says it is stale.
    const stale = await alice.client.get<Bet[]>('/api/bets');
    expect(stale.headers.get('x-wagers-stale')).toBe('1');
    expect(stale.body.map((bet) => bet.id)).not.toContain(after.id);

    // Asked for help, the CLI answers it and succeeds; a command it does not know is an error.
    const help = await projections('--help');
    expect(help).not.toHaveProperty('code');
    expect((help as { stdout: string }).stdout).toContain('skip NAME POSITION');
    expect(await projections('frobnicate')).toMatchObject({ code: 2 });

    // Nothing is skipped where no projector stopped.
    const wrong = await projections('skip', 'bets', '1-1');
    expect(wrong).toMatchObject({ code: 1 });
    expect((wrong as { stderr: string }).stderr).toContain('bets has not stopped at 1-1');

    const skipped = await projections('skip', 'bets', poison.position);
    expect((skipped as { stdout: string }).stdout).toContain(
      `bets passes over event ${broken.id} at ${poison.position}; recorded in the log.`,
    );
    const record = (await store.readStream(operatorProjectionsStream)).find(
      (event) => event.type === 'ProjectionEventSkipped',
    );
    expect(record?.data).toMatchObject({
      projector: 'bets',
      version: betsProjector.version,
      eventId: broken.id,
      position: poison.position,
    });

    // Every other projector that reads bet proposals stopped at the same event, and so did the
    // process manager that looks at each proposal's sides: each is passed over only by its own
    // explicit skip. (Each in its own time: one may reach the event after the bets projector did.)
    const stopped = [
      'activity',
      'bet-terms',
      'head-to-head',
      'settle-up',
      'pm-bets-of-deleted-accounts',
    ];
    for (const name of stopped) {
      const other = await until(`${name} to stop at the broken event`, async () => {
        const skip = await projections('skip', name, poison.position);
        return !('code' in skip) && skip;
      });
      expect(other.stdout).toContain(`${name} passes over event`);
    }

    // The notifier's dispatcher cannot read the proposal either. It tries it again (its failures
    // are mostly Redis's) but says where it waits and why, and is passed over the same way; until
    // then nobody is told of anything proposed after it.
    const waiting = await until('status to show the dispatcher waiting', async () => {
      const { stdout } = await projections('status');
      return stdout.includes('notifier-notifications build') && stdout;
    });
    expect(waiting).toMatch(/^notifier-notifications\s+\d+\s+\d+\s+live, stopped\s/m);
    expect(waiting).toContain(
      `notifier-notifications build 1 stopped at ${poison.position} (event ${broken.id}): `,
    );
    const told = await projections('skip', 'notifier-notifications', poison.position);
    expect((told as { stdout: string }).stdout).toContain(
      `notifier-notifications passes over event ${broken.id} at ${poison.position}; recorded in the log.`,
    );
    await until('the notice of the bet made after the broken event', async () => {
      const mails = (await (await fetch(`${app.url}/api/dev/mail`)).json()) as {
        to: string;
        subject: string;
      }[];
      return mails.some(
        (mail) => mail.to === bob.user.email && mail.subject.includes('Made after the broken one'),
      );
    });

    const list = await until('the bet made after the broken event', async () => {
      const answer = await alice.client.get<Bet[]>('/api/bets');
      return answer.body.some((bet) => bet.id === after.id) && answer;
    });
    expect(list.headers.get('x-wagers-stale')).toBeNull();
    const { stdout } = await projections('status');
    expect(stdout).not.toContain('stopped');
  }, 360_000);
});
