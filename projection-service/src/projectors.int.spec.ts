import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { betStream } from '@wagers/contracts/events/bet';
import { notificationKinds } from '@wagers/contracts/api/notifications';
import { auditorStream } from '@wagers/contracts/events/auditor';
import { friendshipStream } from '@wagers/contracts/events/friendship';
import { inviteStream } from '@wagers/contracts/events/invite';
import { notificationPreferencesStream } from '@wagers/contracts/events/notification-preferences';
import { userStream } from '@wagers/contracts/events/user';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { copiedColumns } from '@wagers/platform/event-store/copied-event';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import { applyEvents, type Projector } from '@wagers/platform/projections/projector';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { readModelMigrations } from './migrations.ts';
import { betsProjector } from './bets/bets.projector.ts';
import { allProjectors } from './projectors.ts';

/** A log of people, bets of every kind and friendships, as the domain writes them. */
function sampleLog(bets: number): RecordedEvent[] {
  const log: RecordedEvent[] = [];
  const revisions = new Map<string, bigint>();
  const at = Date.parse('2026-03-01T12:00:00Z');
  const add = (streamId: string, type: string, data: unknown, actorId: string) => {
    const revision = revisions.get(streamId) ?? 0n;
    revisions.set(streamId, revision + 1n);
    log.push({
      id: randomUUID(),
      streamId,
      revision,
      position: `1000-${log.length + 1}`,
      type,
      data,
      metadata: {
        actorId,
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: new Date(at + log.length * 1000).toISOString(),
        schemaVersion: 1,
      },
      recordedAt: new Date(at + log.length * 1000),
    });
  };
  const people = Array.from({ length: 6 }, () => randomUUID());
  people.forEach((userId, i) => {
    const name = { firstName: `Person ${i}`, lastName: null };
    add(
      userStream(userId),
      'UserRegistered',
      { userId, email: `p${i}@example.com`, ...name },
      userId,
    );
  });
  add(auditorStream(people[5]!), 'AuditorRoleGranted', { userId: people[5] }, people[5]!);
  add(
    notificationPreferencesStream(people[0]!),
    'EmailNotificationsChanged',
    { userId: people[0], kind: notificationKinds[0], email: false, via: 'profile' },
    people[0]!,
  );
  // Bets proposed to a newcomer by email, joined by one of the people some bets later (or not).
  let invited: { stream: string; creator: string; joiner: string; code: string } | null = null;
  for (let i = 0; i < bets; i++) {
    const [creator, opponent] = [people[i % 6]!, people[(i + 1 + (i % 5)) % 6]!];
    if (i % 10 === 4) {
      const betId = randomUUID();
      const joiner = people[(i + 3) % 6]!;
      invited = { stream: betStream(betId), creator, joiner, code: `bet-code-${i}` };
      add(
        invited.stream,
        'BetProposed',
        {
          betId,
          creatorId: creator,
          opponentId: null,
          inviteeEmail: `newcomer.${i}@example.com`,
          inviteePhone: null,
          smsConsent: false,
          title: `Invited bet ${i}`,
          description: 'Who wakes up first',
          wagerType: 'custom',
          wagerAmountCents: null,
          wagerDescription: 'Breakfast',
          endDate: null,
          validationMode: 'both',
        },
        creator,
      );
      add(invited.stream, 'BetInviteAttached', { inviteCode: invited.code }, creator);
    }
    if (i % 20 === 9 && invited) {
      const { joiner } = invited;
      add(
        invited.stream,
        'BetInviteAccepted',
        { opponentId: joiner, inviteCode: invited.code },
        joiner,
      );
      add(
        invited.stream,
        'ResolutionSubmitted',
        {
          party: 'creator',
          userId: invited.creator,
          resolution: 'creator_won',
          submittedAt: new Date(at).toISOString(),
        },
        invited.creator,
      );
      invited = null;
    }
    const betId = randomUUID();
    const stream = betStream(betId);
    add(
      stream,
      'BetProposed',
      {
        betId,
        creatorId: creator,
        opponentId: opponent,
        inviteeEmail: null,
        inviteePhone: null,
        smsConsent: false,
        // Every character COPY or a SQL literal must escape, and some that neither may mangle.
        title: `Bet ${i}\twith a tab, O'Brien's "quote", a back\\slash, a new\nline and ü ✓`,
        description: 'Who runs the faster 10k',
        wagerType: i % 3 === 0 ? 'custom' : 'money',
        wagerAmountCents: i % 3 === 0 ? null : 100 * (i + 1),
        wagerDescription: i % 3 === 0 ? 'Dinner' : null,
        endDate: null,
        validationMode: 'both',
        reportStands: i % 2 === 0,
      },
      creator,
    );
    const kind = i % 5;
    if (kind === 1) add(stream, 'BetDeclined', { opponentId: opponent }, opponent);
    if (kind === 2) add(stream, 'BetDeleted', { deletedBy: creator }, creator);
    if (kind < 3 && kind !== 0) continue;
    add(stream, 'BetAccepted', { opponentId: opponent }, opponent);
    const report = (party: 'creator' | 'opponent', userId: string, resolution: string) =>
      add(
        stream,
        'ResolutionSubmitted',
        { party, userId, resolution, submittedAt: new Date(at).toISOString() },
        userId,
      );
    report('creator', creator, 'creator_won');
    if (kind === 3) {
      report('opponent', opponent, 'opponent_won');
      add(stream, 'DrawOffered', { userId: opponent }, opponent);
      add(stream, 'DrawAccepted', { userId: creator }, creator);
      add(stream, 'BetCompleted', { resolution: 'draw', winnerId: null }, creator);
      continue;
    }
    report('opponent', opponent, 'creator_won');
    add(stream, 'BetCompleted', { resolution: 'creator_won', winnerId: creator }, opponent);
    add(stream, 'BetMarkedPaid', { userId: opponent }, opponent);
    add(stream, 'BetPaymentConfirmed', { userId: creator }, creator);
  }
  for (let i = 0; i < 5; i++) {
    const [sender, receiver] = [people[i]!, people[i + 1]!];
    const stream = friendshipStream(sender, receiver);
    const request = { requestId: randomUUID(), senderId: sender, receiverId: receiver };
    add(stream, 'FriendRequestSent', request, sender);
    if (i % 2 === 0) add(stream, 'FriendRequestAccepted', request, receiver);
    if (i === 3) add(stream, 'FriendRequestDeclined', request, receiver);
    if (i !== 3) {
      add(
        stream,
        'FriendshipStarted',
        { userIds: [sender, receiver].sort(), requestId: request.requestId, inviteCode: null },
        receiver,
      );
    }
  }
  for (let i = 0; i < 4; i++) {
    const code = `code-${i}`;
    const deliveryId = randomUUID();
    add(
      inviteStream(code),
      'InviteSent',
      {
        code,
        inviterId: people[i]!,
        inviterName: `O'Brien "${i}" \\ ü`,
        inviteeEmail: `friend.${i}@example.com`,
        inviteePhone: null,
        smsConsent: null,
        betId: null,
        message: i % 2 === 0 ? `Join me,\tit's "fun" \\ ✓` : null,
      },
      people[i]!,
    );
    if (i !== 1)
      add(
        inviteStream(code),
        'InviteDelivered',
        { code, deliveryId, channel: 'email' },
        people[i]!,
      );
    if (i === 2) add(inviteStream(code), 'InviteResent', { code }, people[i]!);
    if (i % 2 === 0) {
      const acceptedBy = people[i + 1]!;
      add(
        inviteStream(code),
        'InviteAccepted',
        { code, inviterId: people[i]!, acceptedBy, betId: null },
        acceptedBy,
      );
    }
  }
  return log;
}

/**
 * Every row of the projector's tables, in a stable order: by `seq` where a table numbers its rows
 * (the number itself may differ, the order may not), else by the row.
 */
async function contents(client: pg.ClientBase, projector: Projector): Promise<string[][]> {
  const tables = [];
  for (const table of projector.tables) {
    const result = await client.query<{ row: string }>(
      `SELECT (to_jsonb(t) - 'seq')::text AS row FROM ${table} t
       ORDER BY (to_jsonb(t) ->> 'seq')::bigint NULLS LAST, 1`,
    );
    tables.push(result.rows.map((r) => r.row));
  }
  return tables;
}

/** Applies pages of the log into fresh tables of the projector; returns rows and statements. */
async function project(
  client: pg.Client,
  projector: Projector,
  pages: RecordedEvent[][],
  { withCommit = true } = {},
): Promise<{ rows: string[][]; statements: number[] }> {
  const schema = `spec_${projector.name.replaceAll('-', '_')}_${randomUUID().slice(0, 8)}`;
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.query(`SET search_path TO ${schema}, public`);
  await client.query(projector.schema!.tables);
  await client.query(projector.schema!.indexes);
  const statements: number[] = [];
  let counted = 0;
  const counting = new Proxy(client, {
    get(target, key, receiver) {
      if (key !== 'query') return Reflect.get(target, key, receiver) as unknown;
      return (...args: Parameters<pg.Client['query']>) => {
        counted += 1;
        return (target.query as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
  for (const page of pages) {
    counted = 0;
    await client.query('BEGIN');
    const atCommit: string[] = [];
    // Without the commit's statements, as a bulk load applies a page it could not fold.
    await applyEvents(
      projector,
      counting,
      page,
      withCommit ? { bulk: false, atCommit: (sql) => atCommit.push(sql) } : { bulk: true },
    );
    // What a follower sends with the page's checkpoint and COMMIT, in its last round trip.
    if (atCommit.length > 0) await client.query(atCommit.join('; '));
    await client.query('COMMIT');
    statements.push(counted);
  }
  const rows = await contents(client, projector);
  await client.query('SET search_path TO DEFAULT');
  return { rows, statements };
}

/**
 * Bulk loads pages of the log into fresh tables without their secondary indexes, as a new build
 * does: each page is folded before the page ahead of it is written, and written in its own
 * transaction once that one has committed. Returns the rows once the indexes are made.
 */
async function projectBulk(
  client: pg.Client,
  projector: Projector,
  pages: RecordedEvent[][],
): Promise<string[][]> {
  const schema = `spec_bulk_${projector.name.replaceAll('-', '_')}_${randomUUID().slice(0, 8)}`;
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.query(`SET search_path TO ${schema}, public`);
  await client.query(projector.schema!.tables);
  const loader = projector.bulkLoader!();
  let writing = Promise.resolve();
  for (const page of pages) {
    const write = await loader.fold(page);
    await writing;
    writing = (async () => {
      await client.query('BEGIN');
      await write(client);
      await client.query('COMMIT');
    })();
  }
  await writing;
  await client.query(projector.schema!.indexes);
  const rows = await contents(client, projector);
  await client.query('SET search_path TO DEFAULT');
  return rows;
}

/** Pages of `size` events. */
const paged = (log: RecordedEvent[], size: number) =>
  Array.from({ length: Math.ceil(log.length / size) }, (_, i) =>
    log.slice(i * size, (i + 1) * size),
  );

describe('projectors following the log live', () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.url, [platformMigrations, readModelMigrations]);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  const withTables = allProjectors.filter((projector) => projector.schema);
  const oneAtATime = (projector: Projector, log: RecordedEvent[]) =>
    project(
      client,
      projector,
      log.map((event) => [event]),
    );

  it.each(withTables.map((projector) => [projector.name, projector] as const))(
    '%s applies a page of hundreds of events in a handful of statements, to the rows one event at a time gives',
    async (_name, projector) => {
      const log = sampleLog(60);
      const oneByOne = await oneAtATime(projector, log);
      const inPages = await project(client, projector, [log.slice(0, 200), log.slice(200)]);

      expect(log.length).toBeGreaterThan(300);
      expect(inPages.rows).toEqual(oneByOne.rows);
      expect(Math.max(...inPages.statements)).toBeLessThanOrEqual(8);
    },
  );

  it.each(withTables.map((projector) => [projector.name, projector] as const))(
    '%s writes the same rows whether a page sends its writes with its commit or, in bulk, as it goes',
    async (_name, projector) => {
      const pages = paged(sampleLog(30), 40);
      const withCommit = await project(client, projector, pages);
      const asItGoes = await project(client, projector, pages, { withCommit: false });
      expect(withCommit.rows).toEqual(asItGoes.rows);
      expect(withCommit.rows.flat().length).toBeGreaterThan(0);
    },
  );

  // Projectors whose live pages fold a bet from its proposal without reading its row first.
  const startingAtProposal = withTables.filter((projector) =>
    ['bets', 'bet-terms', 'head-to-head', 'settle-up', 'activity'].includes(projector.name),
  );
  it.each(startingAtProposal.map((projector) => [projector.name, projector] as const))(
    '%s applies live pages again, whole or overlapping, to the rows one pass gives',
    async (_name, projector) => {
      const log = sampleLog(60);
      const oneByOne = await oneAtATime(projector, log);
      const [first, second] = [log.slice(0, 200), log.slice(200)];
      // The log twice over; then a page from before the checkpoint to past it, so bets it
      // proposes are stored as of the middle of the page and must come out as of its end.
      const twice = await project(client, projector, [first, second, first, second]);
      const overlapping = await project(client, projector, [log.slice(0, 250), log.slice(150)]);
      // A checkpoint between a proposal and the decline or deletion that ends the bet.
      const end = log.findIndex(
        (event, i) => i > 100 && (event.type === 'BetDeclined' || event.type === 'BetDeleted'),
      );
      const endedAfter = await project(client, projector, [log.slice(0, end), log.slice(end - 40)]);

      expect(startingAtProposal.length).toBe(5);
      expect(twice.rows).toEqual(oneByOne.rows);
      expect(overlapping.rows).toEqual(oneByOne.rows);
      expect(log[end - 1]!.type).toBe('BetProposed');
      expect(endedAfter.rows).toEqual(oneByOne.rows);
    },
  );

  it.each(startingAtProposal.map((projector) => [projector.name, projector] as const))(
    '%s reads nothing for a live page that proposes every bet it touches',
    async (_name, projector) => {
      const log = sampleLog(60);
      const inPages = await project(client, projector, [log.slice(0, 200), log.slice(200)]);
      expect(inPages.statements).toEqual([0, 1]);
    },
  );

  const naming = withTables.filter((projector) => projector.eventTypes);
  it.each(naming.map((projector) => [projector.name, projector] as const))(
    '%s acts on no event outside the types it names, so a follower may pass over pages of them',
    async (_name, projector) => {
      const log = sampleLog(20);
      const types = projector.eventTypes!;
      const everything = await project(client, projector, [log]);
      const named = await project(client, projector, [log.filter((e) => types.has(e.type))]);
      const others = await project(client, projector, [log.filter((e) => !types.has(e.type))]);

      expect(named.rows).toEqual(everything.rows);
      expect(others.rows.flat()).toEqual([]);
    },
  );

  it.each(
    withTables
      .filter((projector) => projector.bulkLoader)
      .map((projector) => [projector.name, projector] as const),
  )(
    '%s bulk loads pages folded ahead of their writes to the rows one event at a time gives',
    async (_name, projector) => {
      const log = sampleLog(60);
      const oneByOne = await oneAtATime(projector, log);
      // Streams that span pages; and, with every stream's first event moved to the front (each
      // stream still in order), streams whose later events come many pages after their start.
      const firstsFirst = [
        ...log.filter((event) => event.revision === 0n),
        ...log.filter((event) => event.revision > 0n),
      ];
      for (const pages of [paged(log, 7), paged(firstsFirst, 13), [log]]) {
        expect(await projectBulk(client, projector, pages)).toEqual(oneByOne.rows);
      }
    },
  );

  it('bets bulk loads pages of the PostgreSQL log, its data as stored, to the rows one event at a time gives', async () => {
    // Data as the log may hold it: members a schema drops (written by another version), besides
    // every character COPY must escape.
    const log = sampleLog(30).map((event) =>
      event.type === 'BetAccepted' || event.type === 'BetCompleted'
        ? { ...event, data: { ...(event.data as object), fromAnotherVersion: 'a\tb\\c' } }
        : event,
    );
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const store = createPostgresEventStore(pool, { connectionString: database.url });
    try {
      const after = await store.headPosition();
      for (const event of log) {
        await store.appendToStream(event.streamId, [event], {
          expectedRevision: event.revision === 0n ? 'no_stream' : event.revision - 1n,
        });
      }
      const pages: RecordedEvent[][] = [];
      for await (const page of store.readAllPages({ after, pageSize: 7 })) pages.push(page);
      const read = pages.flat();
      expect(read.map((event) => event.id)).toEqual(log.map((event) => event.id));
      // The bulk read keeps each event's columns as COPY wrote them, which the history then takes.
      expect(read.every((event) => copiedColumns(event, event.data) !== null)).toBe(true);

      const oneByOne = await oneAtATime(betsProjector, read);
      expect(await projectBulk(client, betsProjector, pages)).toEqual(oneByOne.rows);
      const history = oneByOne.rows[1]!.join('\n');
      expect(history).toContain('back\\\\slash');
      expect(history).not.toContain('fromAnotherVersion');
    } finally {
      await store.close();
      await pool.end();
    }
  });
});
