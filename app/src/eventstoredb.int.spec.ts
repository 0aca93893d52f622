import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStoreDBClient } from '@eventstore/db-client';
import type { Bet } from '@wagers/contracts/api/bets';
import type { DevMail } from '@wagers/contracts/api/dev';
import type { FriendRequest } from '@wagers/contracts/api/friends';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import type { User } from '@wagers/contracts/api/user';
import { betStream } from '@wagers/contracts/events/bet';
import {
  eventStoreDbUnderTestName,
  startEventStoreDbUnderTest,
  type EventStoreDbUnderTest,
} from '@wagers/test-support/eventstoredb/under-test';
import { eventually, queryDb } from '@wagers/test-support/log';
import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { verifyLog } from '@wagers/platform/event-store/chain-verifier';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { sampleEvent } from '@wagers/platform/event-store/sample-events';
import { person, proposeTo, sync } from './api/bets/http-fixtures.ts';
import { startTestApp, type TestApp } from './test-support/test-app.ts';

const cli = createRequire(import.meta.url).resolve('@wagers/projection-service/cli');
const run = promisify(execFile);

/**
 * The whole product with EVENT_STORE=eventstoredb, as docker-compose.yml runs it: commands
 * append to EventStoreDB, and the projections and the notifier follow its $all. PostgreSQL
 * keeps read models, checkpoints and sessions, and no events.
 */
describe(`the product on ${eventStoreDbUnderTestName}`, () => {
  let eventStore: EventStoreDbUnderTest;
  let app: TestApp;
  let raw: EventStoreDBClient;

  beforeAll(async () => {
    eventStore = await startEventStoreDbUnderTest();
    app = await startTestApp({
      env: { EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: eventStore.url },
    });
    raw = EventStoreDBClient.connectionString(eventStore.url);
  }, 240_000);
  afterAll(async () => {
    await raw?.dispose();
    await app?.stop();
    await eventStore?.stop();
  }, 120_000);

  it('signs people in, makes them friends, and has a bet proposed and accepted', async () => {
    const [ann, bob] = [await person(app, 'Ann'), await person(app, 'Bob')];

    const asked = await ann.client.post<FriendRequest>('/api/friend-requests', {
      receiverId: bob.user.id,
    });
    expect(asked.status, asked.text).toBe(201);
    sync(ann, bob);
    const pending = await bob.client.get<FriendRequest[]>('/api/friend-requests');
    expect(pending.body.map((request) => request.id)).toEqual([asked.body.id]);
    const befriended = await bob.client.post(`/api/friend-requests/${asked.body.id}/accept`);
    expect(befriended.status, befriended.text).toBe(200);
    sync(ann, bob);
    const friends = await ann.client.get<User[]>('/api/friends');
    expect(friends.body.map((friend) => friend.id)).toEqual([bob.user.id]);

    const { id: betId } = await proposeTo(ann, bob);
    expect((await bob.client.get<Bet>(`/api/bets/${betId}`)).body.status).toBe('pending');
    const accepted = await bob.client.post(`/api/bets/${betId}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    sync(ann, bob);
    expect((await ann.client.get<Bet>(`/api/bets/${betId}`)).body).toMatchObject({
      status: 'active',
      creatorId: ann.user.id,
      opponentId: bob.user.id,
    });

    const stored: string[] = [];
    for await (const { event } of raw.readStream(betStream(betId))) stored.push(event!.type);
    expect(stored).toEqual(['BetProposed', 'BetAccepted']);
    const [inPostgres] = await queryDb<{ n: string }>(
      app.databaseUrl,
      'SELECT count(*) AS n FROM es_events',
    );
    expect(Number(inPostgres!.n)).toBe(0);
  });

  it('has the notifier deliver an invitation it read from $all', async () => {
    const cy = await person(app, 'Cy');
    const invitee = `newcomer.${Date.now()}@example.com`;

    const sent = await cy.client.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: invitee,
    });
    expect(sent.status, sent.text).toBe(201);

    const mailsToInvitee = async () =>
      ((await (await fetch(`${app.url}/api/dev/mail`)).json()) as DevMail[]).filter(
        (mail) => mail.to === invitee,
      );
    await eventually(async () => (await mailsToInvitee()).length > 0, 'the invitation email');
    expect(
      (await mailsToInvitee()).map((mail) => mail.text.includes(sent.body.inviteLink)),
    ).toEqual([true]);
  });

  it('deletes an account: nothing in EventStoreDB reads as the person, and the chains verify', async () => {
    const dee = await person(app, 'Deirdre', 'Quillfeather');
    const email = dee.user.email!;
    const deleted = await dee.client.request('DELETE', '/api/user', { confirmEmail: email });
    expect(deleted.status, deleted.text).toBe(200);
    await app.settled();

    const stored: string[] = [];
    for await (const { event } of raw.readAll()) {
      if (event && !event.type.startsWith('$')) stored.push(JSON.stringify(event.data));
    }
    expect(stored.join('\n')).toContain(dee.user.id);
    expect(stored.join('\n')).not.toMatch(new RegExp(`${email}|Deirdre|Quillfeather`, 'i'));

    const pool = createPool(app.databaseUrl, 2);
    const store = createEventStore(
      loadConfig({ EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: eventStore.url }),
      pool,
      app.databaseUrl,
    );
    try {
      const [registered] = await store.readStream(`user-${dee.user.id}`);
      expect(registered!.data).toMatchObject({ email: null, firstName: null, lastName: null });
      expect((await verifyLog(store, pool)).broken).toEqual([]);
    } finally {
      await store.close();
      await pool.end();
    }
  });

  /** The projections command line, as an operator runs it against this deployment. */
  async function projections(...args: string[]): Promise<{ code?: number; stdout: string }> {
    return run(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: {
        ...process.env,
        DATABASE_URL: app.databaseUrl,
        EVENT_STORE: 'eventstoredb',
        EVENTSTORE_URL: eventStore.url,
        LOG_LEVEL: 'silent',
      },
    }).catch((error: { code: number; stdout: string }) => error);
  }

  it('shows an operator how far a projector stopped on the log trails it, in status and on /metrics', async () => {
    const pool = createPool(app.databaseUrl, 2);
    const store = createEventStore(
      loadConfig({ EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: eventStore.url }),
      pool,
      app.databaseUrl,
    );
    try {
      // A proposal without its fields, which the bets projector cannot read, and an event after it.
      const broken = sampleEvent('BetProposed', { betId: 'broken' });
      const poison = await store.appendToStream(`bet-${randomUUID()}`, [broken], {
        expectedRevision: 'no_stream',
      });
      await store.appendToStream(`after-${randomUUID()}`, [sampleEvent('SomethingHappened')], {
        expectedRevision: 'no_stream',
      });

      const bets =
        /^bets\s+\d+\s+\d+\s+live, stopped\s+\S+\s+\d+\s+(?<events>≥ )?(?<lag>\d+)\s+(?<seconds>\d+\.\d)$/m;
      let status = '';
      await eventually(async () => {
        status = (await projections('status')).stdout;
        return bets.test(status);
      }, 'status to show bets stopped');
      expect(status).toContain(`bets build`);
      expect(status).toContain(`stopped at ${poison.position} (event ${broken.id}): `);
      // The broken event and the one after it are still to apply, and the oldest has waited.
      const lag = bets.exec(status)!.groups!;
      expect(Number(lag.lag)).toBeGreaterThanOrEqual(2);
      expect(Number(lag.seconds)).toBeGreaterThan(0);
      expect(status).toMatch(/^head of the log: \d+-\d+$/m);

      const metrics = await (await fetch(`${app.url}/metrics`)).text();
      expect(metrics).toMatch(
        new RegExp(
          `^wagers_projection_stopped\\{projector="bets",build="\\d+",position="${poison.position}",event_id="${broken.id}",error="[^\\n]*invalid_type[^\\n]*"\\} 1$`,
          'm',
        ),
      );
      expect(metrics).toMatch(
        /^wagers_projection_build_status\{projector="bets",build="\d+",version="\d+",status="live"\} 1$/m,
      );
      const lagGauge =
        /^wagers_projection_lag_events\{projector="bets"\} (\d+)$/m.exec(metrics)?.[1] ?? null;
      expect(Number(lagGauge)).toBeGreaterThanOrEqual(2);

      // Passed over by hand (every follower that stopped there), the lag goes. Each look and each
      // skip starts the CLI anew, seconds apiece on a busy machine: the wait allows a minute.
      await eventually(
        async () => {
          const now = (await projections('status')).stdout;
          const stops = [...now.matchAll(/^(\S+) build \d+ stopped at (\S+) /gm)];
          for (const [, name, position] of stops) await projections('skip', name!, position!);
          return (
            stops.length === 0 && /^bets\s+\d+\s+\d+\s+live\s+\S+\s+\d+\s+0\s+0\.0$/m.test(now)
          );
        },
        'every follower passed over the broken event and bets caught up',
        60_000,
      );
    } finally {
      await store.close();
      await pool.end();
    }
  }, 240_000);
});
