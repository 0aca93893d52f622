import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Socket } from 'node:net';
import pg from 'pg';
import { freePort } from '../embedded.ts';
import {
  asAnotherProcess,
  createTestDatabase,
  type TestDatabase,
} from '@wagers/test-support/database';
import { LogWakeup } from './wakeup.ts';

const CHANNEL = 'wakeup_test';

describe('log wake-ups', () => {
  let database: TestDatabase;
  let listener: pg.Client;
  const received: string[] = [];

  /** Backends of the test database other than the test's own listener. */
  const backends = async () => {
    const { rows } = await listener.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.map((row) => row.pid);
  };

  /** Two wake-ups of this process on two channels, listening, with what each has heard. */
  const twoChannels = async () => {
    const before = await backends();
    const events = new LogWakeup(database.url, 'wakeup_events');
    const builds = new LogWakeup(database.url, 'wakeup_builds');
    const heard = { events: [] as (string | null)[], builds: [] as (string | null)[] };
    events.onWake((payload) => heard.events.push(payload));
    builds.onWake((payload) => heard.builds.push(payload));
    await Promise.all([events.ready(), builds.ready()]);
    return { before, events, builds, heard };
  };

  beforeAll(async () => {
    database = await createTestDatabase('wagers_wakeup');
    listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', (message) => received.push(message.channel));
    await listener.query(`LISTEN ${CHANNEL}`);
  }, 120_000);

  afterAll(async () => {
    await listener.end();
    await database.drop();
  }, 120_000);

  it('wakes followers in the process at once and sends other processes one NOTIFY per burst', async () => {
    const writer = new LogWakeup(database.url, CHANNEL);
    const elsewhere = new LogWakeup(asAnotherProcess(database.url), CHANNEL);
    let wokenHere = 0;
    let wokenElsewhere = 0;
    writer.onWake(() => (wokenHere += 1));
    elsewhere.onWake(() => (wokenElsewhere += 1));
    await Promise.all([writer.ready(), elsewhere.ready()]);
    const [hereAtStart, elsewhereAtStart] = [wokenHere, wokenElsewhere];
    received.length = 0;

    for (let i = 0; i < 100; i++) writer.announce();
    expect(wokenHere - hereAtStart).toBe(100);

    await writer.close();
    await listener.query('SELECT 1');
    // One NOTIFY for the first announcement, one for all that came while it was in flight.
    expect(received).toEqual([CHANNEL, CHANNEL]);
    await expect.poll(() => wokenElsewhere - elsewhereAtStart).toBe(2);
    // The writer's own NOTIFYs do not wake its followers a second time.
    expect(wokenHere - hereAtStart).toBe(100);
    await elsewhere.close();
  });

  it('listens on every channel of the process over one connection, and wakes each its own', async () => {
    const { before, events, builds, heard } = await twoChannels();
    const opened = (await backends()).filter((pid) => !before.includes(pid));
    expect(opened).toHaveLength(1);

    heard.events.length = 0;
    heard.builds.length = 0;
    await listener.query(
      `SELECT pg_notify('wakeup_events', 'e1'), pg_notify('wakeup_builds', 'b1')`,
    );
    await expect.poll(() => [heard.events, heard.builds]).toEqual([['e1'], ['b1']]);

    // Closing one channel leaves the other listening; closing both ends the connection.
    await builds.close();
    await listener.query(
      `SELECT pg_notify('wakeup_events', 'e2'), pg_notify('wakeup_builds', 'b2')`,
    );
    await expect.poll(() => heard.events).toEqual(['e1', 'e2']);
    expect(heard.builds).toEqual(['b1']);
    await events.close();
    await expect
      .poll(async () => (await backends()).filter((pid) => opened.includes(pid)))
      .toEqual([]);
  });

  it('wakes every wake-up of a channel in the process once per announcement', async () => {
    const store = new LogWakeup(database.url, CHANNEL);
    const dataKeys = new LogWakeup(database.url, CHANNEL);
    let woken = 0;
    store.onWake(() => undefined);
    dataKeys.onWake(() => (woken += 1));
    await Promise.all([store.ready(), dataKeys.ready()]);
    const atStart = woken;
    received.length = 0;
    store.announce();
    expect(woken - atStart).toBe(1);
    await expect.poll(() => received).toEqual([CHANNEL]);
    await listener.query('SELECT 1');
    // The NOTIFY came back to the process's connection: not a second wake-up here.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(woken - atStart).toBe(1);
    await Promise.all([store.close(), dataKeys.close()]);
  });

  it('sends from a process that only writes without listening, and ends that connection on close', async () => {
    const before = await backends();
    const writer = new LogWakeup(database.url, CHANNEL);
    received.length = 0;
    writer.announce();
    await expect.poll(() => received).toEqual([CHANNEL]);
    const { rows } = await listener.query<{ pid: number; query: string }>(
      'SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> ALL($1::int[]) AND pid <> pg_backend_pid()',
      [before],
    );
    // One connection, the one that sent: nothing listens for a writer with no followers.
    expect(rows).toHaveLength(1);
    expect(rows[0]?.query).toContain('pg_notify');
    await writer.close();
    await expect
      .poll(async () => (await backends()).filter((pid) => !before.includes(pid)))
      .toEqual([]);
  });

  it('keeps no connection when closed while it was still connecting', async () => {
    const before = await backends();
    const wakeup = new LogWakeup(database.url, CHANNEL);
    wakeup.onWake(() => undefined);
    await wakeup.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await backends()).filter((pid) => !before.includes(pid))).toEqual([]);
  });

  it('has heard, once a round trip returns, what was committed before it, and says when it stops and starts listening', async () => {
    const before = await backends();
    const wakeup = new LogWakeup(database.url, 'wakeup_rounds');
    const heard: (string | null)[] = [];
    const states: boolean[] = [];
    /** A round trip asked for while the connection is down. */
    const whileDown: { trip?: Promise<string> } = {};
    wakeup.onWake((payload) => heard.push(payload));
    wakeup.onListening((listening) => {
      states.push(listening);
      if (!listening) {
        whileDown.trip = wakeup.heardUpToNow().then(
          () => 'answered',
          () => 'refused',
        );
      }
    });
    await wakeup.ready();
    expect(states).toEqual([true]);

    for (let i = 0; i < 5; i++) {
      await listener.query(`SELECT pg_notify('wakeup_rounds', $1)`, [`r${i}`]);
      await wakeup.heardUpToNow();
      // No waiting: the notification is in before the round trip's answer.
      expect(heard.at(-1)).toBe(`r${i}`);
    }

    const [shared] = (await backends()).filter((pid) => !before.includes(pid));
    await listener.query('SELECT pg_terminate_backend($1)', [shared]);
    await expect.poll(() => states, { timeout: 10_000 }).toEqual([true, false, true]);
    expect(await whileDown.trip).toBe('refused');
    await listener.query(`SELECT pg_notify('wakeup_rounds', 'after')`);
    await wakeup.heardUpToNow();
    expect(heard.at(-1)).toBe('after');
    await wakeup.close();
  });

  it('keeps trying to listen when the database cannot be reached at first', async () => {
    // The database behind a port where nothing answers yet.
    const port = await freePort();
    const upstream = new URL(database.url);
    const late = new URL(database.url);
    late.hostname = '127.0.0.1';
    late.port = String(port);
    const wakeup = new LogWakeup(late.toString(), 'wakeup_late');
    const heard: (string | null)[] = [];
    const states: boolean[] = [];
    wakeup.onWake((payload) => heard.push(payload));
    wakeup.onListening((listening) => states.push(listening));
    await expect(wakeup.ready()).rejects.toThrow();

    // Then it answers, passing every connection on to the server.
    const sockets = new Set<Socket>();
    const forwarder = createServer((socket) => {
      const server = connect(Number(upstream.port || 5432), upstream.hostname);
      sockets.add(socket).add(server);
      socket.pipe(server).pipe(socket);
      socket.on('error', () => server.destroy());
      server.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(port, '127.0.0.1', resolve));
    try {
      await expect.poll(() => states, { timeout: 10_000 }).toEqual([true]);
      await listener.query(`SELECT pg_notify('wakeup_late', 'at last')`);
      await wakeup.heardUpToNow();
      expect(heard.at(-1)).toBe('at last');
    } finally {
      await wakeup.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => forwarder.close(resolve));
    }
  });

  it('listens again on every channel after its connection drops, and wakes followers to read', async () => {
    const { before, events, builds, heard } = await twoChannels();
    const [shared] = (await backends()).filter((pid) => !before.includes(pid));
    heard.events.length = 0;
    heard.builds.length = 0;

    await listener.query('SELECT pg_terminate_backend($1)', [shared]);
    // Woken once the connection listens again: whatever was committed meanwhile went unheard.
    await expect
      .poll(() => [heard.events, heard.builds], { timeout: 10_000 })
      .toEqual([[null], [null]]);
    await listener.query(
      `SELECT pg_notify('wakeup_events', 'e3'), pg_notify('wakeup_builds', 'b3')`,
    );
    await expect
      .poll(() => [heard.events, heard.builds])
      .toEqual([
        [null, 'e3'],
        [null, 'b3'],
      ]);
    await Promise.all([events.close(), builds.close()]);
  });
});
