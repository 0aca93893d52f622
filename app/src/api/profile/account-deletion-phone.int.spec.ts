import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateBetResponse } from '@wagers/contracts/api/bets';
import { betInput, person, type Person } from '../bets/http-fixtures.ts';
import { openedStreamEvents } from '../../test-support/opened-events.ts';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';

const PHONE = '+14155550187';

/** Every table and column of every schema that holds `needle` as text: "schema.table.column". */
async function whereFound(db: pg.Client, needle: string): Promise<string[]> {
  const { rows: columns } = await db.query<{ schema: string; table: string; column: string }>(
    `SELECT c.table_schema AS schema, c.table_name AS table, c.column_name AS column
       FROM information_schema.columns c
       JOIN information_schema.tables t
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE t.table_type = 'BASE TABLE'
        AND c.table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const found: string[] = [];
  for (const { schema, table, column } of columns) {
    const name = `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`;
    const { rows } = await db.query<{ hit: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${name}
         WHERE position($1 in ${pg.escapeIdentifier(column)}::text) > 0) AS hit`,
      [needle],
    );
    if (rows[0]?.hit) found.push(`${schema}.${table}.${column}`);
  }
  return found;
}

/**
 * A number a newcomer was invited by, and then put on their profile, is theirs: deleting the
 * account erases it wherever it was, as it erases their address.
 */
describe('deleting an account erases its phone number', () => {
  let app: TestApp;
  let db: pg.Client;
  let ann: Person;
  let nia: Person;
  let betId: string;
  let inviteCode: string;

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    ann = await person(app, 'Ann');
    const created = await ann.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteePhone: PHONE, smsConsent: true }),
    );
    expect(created.status, created.text).toBe(201);
    betId = created.body.id;
    inviteCode = created.body.invite!.code;
    await app.drained();
    nia = await person(app, 'Nia');
    const accepted = await nia.client.post(`/api/invites/${inviteCode}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    const phone = await nia.client.put('/api/user/phone', { phone: PHONE, smsConsent: true });
    expect(phone.status, phone.text).toBe(200);
    await app.settled();
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  const inviteePhones = async () => ({
    invites: (
      await db.query<{ invitee_phone: string | null }>('SELECT invitee_phone FROM rm_invites')
    ).rows.map((row) => row.invitee_phone),
    history: (
      await db.query<{ phone: string | null }>(
        `SELECT data->>'inviteePhone' AS phone FROM rm_bet_history
          WHERE bet_id = $1 AND type = 'BetProposed'`,
        [betId],
      )
    ).rows.map((row) => row.phone),
  });

  it('shows the number before, and nowhere once the account is deleted', async () => {
    expect(await inviteePhones()).toEqual({ invites: [PHONE], history: [PHONE] });
    const before = await whereFound(db, PHONE.slice(2));
    expect(before).toEqual(expect.arrayContaining(['public.rate_limit_hits.bucket']));

    const deleted = await nia.client.request('DELETE', '/api/user', {
      confirmEmail: nia.user.email,
    });
    expect(deleted.status, deleted.text).toBe(200);
    await app.settled();

    expect(await inviteePhones()).toEqual({ invites: [null], history: [null] });
    // Nor any other table: counters, the development outbox, read models.
    expect(await whereFound(db, PHONE.slice(2))).toEqual([]);
    // The bet's and the invite's events, as every reader gets them, read it as erased.
    const proposed = await openedStreamEvents(app.databaseUrl, `bet-${betId}`);
    expect(proposed.find((event) => event.type === 'BetProposed')?.data).toMatchObject({
      inviteePhone: null,
    });
    const invite = await openedStreamEvents(app.databaseUrl, `invite-${inviteCode.split('.')[0]!}`);
    expect(invite.find((event) => event.type === 'InviteSent')?.data).toMatchObject({
      inviteePhone: null,
    });
  });
});
