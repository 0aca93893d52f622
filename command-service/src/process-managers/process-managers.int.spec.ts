import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '@wagers/contracts/events/envelope';
import { createPool } from '@wagers/platform/db';
import { toEventData, type CommandContext } from '@wagers/platform/decider';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import type { EventStore, RecordedEvent } from '@wagers/platform/event-store/port';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { betInvitations } from './bet-invitations.ts';
import { inviteAcceptance } from './invite-acceptance.ts';
import type { ProcessManager } from './process-manager.ts';
import { userRegistration } from './user-registration.ts';

let database: TestDatabase;
let pool: Pool;
let store: EventStore;

beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.url, [platformMigrations]);
  pool = createPool(database.url, 4);
  store = createPostgresEventStore(pool, { connectionString: database.url });
});
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
});

const context = (actorId: string | null = null): CommandContext => ({
  actorId,
  correlationId: randomUUID(),
  now: new Date('2030-06-15T12:00:00Z'),
  newId: randomUUID,
});

/**
 * given(streams and their events).when(a process manager reacts to the last event given)
 * .thenAppends(the events it appended, stream by stream); reacting to the same event again (as after a
 * crash before its checkpoint) appends nothing more.
 */
function given(history: [stream: string, events: DomainEvent[]][]) {
  return {
    async when(manager: ProcessManager) {
      let trigger: RecordedEvent | undefined;
      for (const [stream, events] of history) {
        const existing = await store.readStream(stream);
        await store.appendToStream(
          stream,
          events.map((event) => toEventData(event, context(actorOf(event)))),
          { expectedRevision: existing.at(-1)?.revision ?? 'no_stream' },
        );
        trigger = (await store.readStream(stream)).at(-1);
      }
      if (!trigger) throw new Error('nothing given');
      const event = trigger;
      const heads = await headsOf();
      await manager.react(event, context(event.metadata.actorId));
      const appended = await newSince(heads);
      return {
        async thenAppends(expected: Record<string, DomainEvent[]>) {
          expect(appended).toEqual(expected);
          await manager.react(event, context(event.metadata.actorId));
          expect(await newSince(heads), 'a second reaction appends nothing').toEqual(expected);
        },
      };
    },
  };
}

const actorOf = (event: DomainEvent): string | null => {
  const data = event.data as Record<string, unknown>;
  const actor = data.creatorId ?? data.acceptedBy ?? data.userId;
  return typeof actor === 'string' ? actor : null;
};

async function headsOf(): Promise<number> {
  const result = await pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events');
  return Number(result.rows[0]?.n);
}

async function newSince(before: number): Promise<Record<string, DomainEvent[]>> {
  const result = await pool.query<{ stream_id: string; type: string; data: unknown }>(
    'SELECT stream_id, type, data FROM es_events ORDER BY global_position OFFSET $1',
    [before],
  );
  const byStream: Record<string, DomainEvent[]> = {};
  for (const row of result.rows) {
    (byStream[row.stream_id] ??= []).push({ type: row.type, data: row.data });
  }
  return byStream;
}

const registered = (userId: string, email: string): DomainEvent => ({
  type: 'UserRegistered',
  data: { userId, email, firstName: 'Alice', lastName: 'Reed' },
});

const proposal = (betId: string, creatorId: string, inviteeEmail = 'nora@example.com') => ({
  type: 'BetProposed',
  data: {
    betId,
    creatorId,
    opponentId: null,
    inviteeEmail,
    inviteePhone: null,
    smsConsent: false,
    title: 'Rain on Sunday',
    description: 'It will rain',
    wagerType: 'custom',
    wagerAmountCents: null,
    wagerDescription: 'A pizza',
    endDate: null,
    validationMode: 'both',
  },
});

describe('user registration', () => {
  it('registers the account a reserved email stands for, once', async () => {
    const userId = randomUUID();
    await (
      await given([
        [`useremail-${userId}`, [{ type: 'EmailReserved', data: { userId, email: 'a@x.io' } }]],
      ]).when(userRegistration(store))
    ).thenAppends({
      [`user-${userId}`]: [
        {
          type: 'UserRegistered',
          data: { userId, email: 'a@x.io', firstName: null, lastName: null },
        },
      ],
    });
  });
});

describe('bet invitations', () => {
  it('sends the invite under the code the proposal chose, once', async () => {
    const [creatorId, betId, code] = [randomUUID(), randomUUID(), `code-${randomUUID()}`];
    await (
      await given([
        [`user-${creatorId}`, [registered(creatorId, 'alice@example.com')]],
        [
          `bet-${betId}`,
          [proposal(betId, creatorId), { type: 'BetInviteAttached', data: { inviteCode: code } }],
        ],
      ]).when(betInvitations(store))
    ).thenAppends({
      [`invite-${code}`]: [
        {
          type: 'InviteSent',
          data: {
            code,
            inviterId: creatorId,
            inviterName: 'Alice Reed',
            inviteeEmail: 'nora@example.com',
            inviteePhone: null,
            smsConsent: null,
            betId,
            message: null,
          },
        },
      ],
    });
  });

  it('resends the invite once per resend the bet records', async () => {
    const [creatorId, betId, code] = [randomUUID(), randomUUID(), `code-${randomUUID()}`];
    const setup = given([
      [`user-${creatorId}`, [registered(creatorId, 'alice@example.com')]],
      [
        `bet-${betId}`,
        [proposal(betId, creatorId), { type: 'BetInviteAttached', data: { inviteCode: code } }],
      ],
    ]);
    await setup.when(betInvitations(store));
    await (
      await given([
        [`bet-${betId}`, [{ type: 'BetInviteResent', data: { inviteCode: code, sequence: 1 } }]],
      ]).when(betInvitations(store))
    ).thenAppends({
      [`invite-${code}`]: [{ type: 'InviteResent', data: { code, sequence: 1, signedLink: true } }],
    });
  });
  for (const [what, ending] of [
    ['deleted', 'BetDeleted'],
    ['declined', 'BetDeclined'],
  ] as const) {
    it(`sends no invite, nor a resend, for a bet ${what} before the manager got to it`, async () => {
      const [creatorId, betId, code] = [randomUUID(), randomUUID(), `code-${randomUUID()}`];
      await store.appendToStream(
        `user-${creatorId}`,
        [toEventData(registered(creatorId, 'alice@example.com'), context(creatorId))],
        { expectedRevision: 'no_stream' },
      );
      const data = ending === 'BetDeleted' ? { deletedBy: creatorId } : { opponentId: creatorId };
      // The manager is behind: the bet's invite and a resend were asked for, then the bet ended,
      // all before it reads the first of them.
      await store.appendToStream(
        `bet-${betId}`,
        [
          proposal(betId, creatorId),
          { type: 'BetInviteAttached', data: { inviteCode: code } },
          { type: 'BetInviteResent', data: { inviteCode: code, sequence: 1 } },
          { type: ending, data },
        ].map((event) => toEventData(event, context(creatorId))),
        { expectedRevision: 'no_stream' },
      );
      const [, attached, resent] = await store.readStream(`bet-${betId}`);
      const heads = await headsOf();
      const manager = betInvitations(store);
      for (const event of [attached!, resent!])
        expect(await manager.react(event, context(creatorId))).toBeNull();
      expect(await newSince(heads)).toEqual({});
      expect(await store.readStream(`invite-${code}`)).toEqual([]);
    });
  }
});

describe('invite acceptance', () => {
  it('makes the two friends and the newcomer the bet’s opponent, once', async () => {
    const [creatorId, newcomerId, betId, code] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      `code-${randomUUID()}`,
    ];
    const [a, b] = [creatorId, newcomerId].sort();
    await (
      await given([
        [
          `bet-${betId}`,
          [
            proposal(betId, creatorId, 'nora@example.com'),
            { type: 'BetInviteAttached', data: { inviteCode: code } },
          ],
        ],
        [
          `invite-${code}`,
          [
            {
              type: 'InviteAccepted',
              data: { code, inviterId: creatorId, acceptedBy: newcomerId, betId },
            },
          ],
        ],
      ]).when(inviteAcceptance(store))
    ).thenAppends({
      [`friendship-${a}-${b}`]: [
        {
          type: 'FriendshipStarted',
          data: { userIds: [a, b], requestId: null, inviteCode: code },
        },
      ],
      [`bet-${betId}`]: [
        { type: 'BetInviteAccepted', data: { opponentId: newcomerId, inviteCode: code } },
      ],
    });
  });

  it('makes friends but joins no bet that was deleted meanwhile', async () => {
    const [creatorId, newcomerId, betId, code] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      `code-${randomUUID()}`,
    ];
    const [a, b] = [creatorId, newcomerId].sort();
    await (
      await given([
        [
          `bet-${betId}`,
          [
            proposal(betId, creatorId, 'olga@example.com'),
            { type: 'BetInviteAttached', data: { inviteCode: code } },
            { type: 'BetDeleted', data: { deletedBy: creatorId } },
          ],
        ],
        [
          `invite-${code}`,
          [
            {
              type: 'InviteAccepted',
              data: { code, inviterId: creatorId, acceptedBy: newcomerId, betId },
            },
          ],
        ],
      ]).when(inviteAcceptance(store))
    ).thenAppends({
      [`friendship-${a}-${b}`]: [
        {
          type: 'FriendshipStarted',
          data: { userIds: [a, b], requestId: null, inviteCode: code },
        },
      ],
    });
  });
});
