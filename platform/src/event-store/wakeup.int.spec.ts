import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { LogWakeup } from './wakeup.ts';

const CHANNEL = 'wakeup_test';

describe('log wake-ups', () => {
  let database: TestDatabase;
  let listener: pg.Client;
  const received: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('wagers_wakeup');
    listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', (message) => received.push(message.channel));
    await listener.query(`LISTEN ${CHANNEL}`);
  }, 60_000);

  afterAll(async () => {
    await listener.end();
    await database.drop();
  }, 60_000);

  it('wakes followers in the process at once and sends other processes one NOTIFY per burst', async () => {
    const writer = new LogWakeup(database.url, CHANNEL);
    const elsewhere = new LogWakeup(database.url, CHANNEL);
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
});
