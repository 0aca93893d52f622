import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet, BetHistoryEntry, CreateBetResponse } from '@wagers/contracts/api/bets';
import type { AvatarUploadUrlResponse } from '@wagers/contracts/api/profile';
import type { User } from '@wagers/contracts/api/user';
import { allProjectors } from '@wagers/projection-service/projectors';
import { startTestSmtpServer, type TestSmtpServer } from '@wagers/test-support/smtp';
import { runScript } from '../../test-support/run-script.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../test-support/test-app.ts';
import { solidPng } from '../../e2e/support/png.ts';
import { rebuild } from '../bets/rebuild.ts';
import { signInThroughSmtp } from '../notifications/sign-in-through-smtp.ts';

const DANA = { email: 'dunya.quorvel@example.com', firstName: 'Dunyazad', lastName: 'Quorvelle' };
const ANN = { email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' };

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
         WHERE position(lower($1) in lower(${pg.escapeIdentifier(column)}::text)) > 0) AS hit`,
      [needle],
    );
    if (rows[0]?.hit) found.push(`${schema}.${table}.${column}`);
  }
  return found;
}

describe('deleting an account', () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  let db: pg.Client;
  let ann: ApiClient;
  let annId: string;
  let dana: ApiClient;
  let danaId: string;
  let avatarUrl: string;
  const bets: Record<
    'toDana' | 'fromDana' | 'settled' | 'invited' | 'underWay' | 'reported',
    string
  > = {
    toDana: '',
    fromDana: '',
    settled: '',
    invited: '',
    underWay: '',
    reported: '',
  };

  const person = async (who: typeof ANN) => {
    const client = await signInThroughSmtp(app.url, smtp, who.email);
    await app.settled();
    const named = await client.put<User>('/api/user', {
      firstName: who.firstName,
      lastName: who.lastName,
    });
    expect(named.status, named.text).toBe(200);
    return { client, id: named.body.id };
  };
  const ok = async <T>(answer: Promise<{ status: number; text: string; body: T }>) => {
    const { status, text, body } = await answer;
    expect(status, text).toBeLessThan(300);
    return body;
  };
  const propose = (from: ApiClient, opponentId: string, title: string) =>
    ok(
      from.post<CreateBetResponse>('/api/bets', {
        title,
        description: 'Between us',
        wagerType: 'custom',
        wagerDescription: 'Dinner',
        opponentId,
      }),
    ).then((created) => created.id);
  const deleteAccount = (client: ApiClient, body: unknown) =>
    client.request<unknown>('DELETE', '/api/user', body);

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    app = await startTestApp({ env: { SMTP_URL: smtp.url } });
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    ({ client: ann, id: annId } = await person(ANN));
    // Before Dana has an account, Ann invites her address to a bet: a newcomer's address is
    // sealed with the key of the address, which Dana's deletion destroys too.
    bets.invited = await ok(
      ann.post<CreateBetResponse>('/api/bets', {
        title: 'Fog in June',
        description: 'Before she joined',
        wagerType: 'custom',
        wagerDescription: 'Lunch',
        inviteeEmail: DANA.email,
      }),
    ).then((created) => created.id);
    await app.settled();
    ({ client: dana, id: danaId } = await person(DANA));
    const picture = solidPng(8, [200, 40, 40]);
    const upload = await ok(
      dana.post<AvatarUploadUrlResponse>('/api/avatar/upload-url', {
        contentType: 'image/png',
        size: picture.length,
      }),
    );
    const put = await fetch(upload.uploadURL, {
      method: 'PUT',
      body: picture,
      headers: { 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);
    avatarUrl = (await ok(dana.put<User>('/api/avatar', { avatarURL: upload.uploadURL })))
      .profileImageUrl!;
    expect((await fetch(`${app.url}${avatarUrl}`)).status).toBe(200);
    await ok(ann.post('/api/friend-requests', { receiverId: danaId }));
    await ok(dana.post('/api/friend-requests', { receiverId: annId }));
    await app.settled();
    bets.settled = await propose(ann, danaId, 'Rain on Sunday');
    await app.settled();
    await ok(dana.post(`/api/bets/${bets.settled}/accept`));
    await ok(ann.post(`/api/bets/${bets.settled}/resolve`, { resolution: 'creator_won' }));
    await ok(dana.post(`/api/bets/${bets.settled}/resolve`, { resolution: 'creator_won' }));
    bets.underWay = await propose(ann, danaId, 'Wind in June');
    bets.reported = await propose(ann, danaId, 'Frost in August');
    await app.settled();
    await ok(dana.post(`/api/bets/${bets.underWay}/accept`));
    await ok(dana.post(`/api/bets/${bets.reported}/accept`));
    await ok(ann.post(`/api/bets/${bets.reported}/resolve`, { resolution: 'creator_won' }));
    bets.toDana = await propose(ann, danaId, 'Snow in April');
    bets.fromDana = await propose(dana, annId, 'Hail in May');
    await app.settled();
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
    await smtp?.stop();
  });

  it('is refused signed out, without the confirmation, and with another address', async () => {
    expect((await deleteAccount(app.anonymous(), { confirmEmail: DANA.email })).status).toBe(401);
    const unconfirmed = await deleteAccount(dana, {});
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.text).toContain('confirmEmail');
    // Ann is signed in, but only ever deletes her own account: Dana's address does not confirm it.
    const wrong = await deleteAccount(ann, { confirmEmail: DANA.email });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('confirmEmail');
    await app.settled();
    expect((await ann.get<User>('/api/auth/user')).body.id).toBe(annId);
    expect((await dana.get<User>('/api/auth/user')).body.id).toBe(danaId);
  });

  it('erases the person: signed out, open bets ended and the other side told', async () => {
    const deleted = await deleteAccount(dana, { confirmEmail: ` ${DANA.email.toUpperCase()} ` });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ status: 'deleted' });
    expect((await dana.get('/api/auth/user')).status).toBe(401);
    await app.settled();
    // The erasure removed the picture: its URL no longer serves it.
    expect((await fetch(`${app.url}${avatarUrl}`)).status).toBe(404);
    const told = [
      'Deleted user declined your bet "Snow in April"',
      '"Hail in May" is off: the other side deleted their account',
      'The other side of "Wind in June" deleted their account: your report decides the outcome',
      '"Frost in August" is complete',
    ];
    const subjectsToAnn = () =>
      smtp.received.filter((mail) => mail.to.includes(ANN.email)).map((mail) => mail.subject);
    await smtp.waitFor(
      () => told.every((subject) => subjectsToAnn().includes(subject)),
      `the four notices to Ann (${JSON.stringify(subjectsToAnn())})`,
    );
    // Her report on "Frost in August" stood at once: she hears of the completion alone.
    await app.drained();
    expect(subjectsToAnn()).not.toContain(
      'The other side of "Frost in August" deleted their account: your report decides the outcome',
    );

    const mine = await ok(ann.get<Bet[]>('/api/bets'));
    expect(mine.find((bet) => bet.id === bets.toDana)).toMatchObject({
      status: 'declined',
      opponent: { id: danaId, firstName: null, lastName: null, email: null, deleted: true },
    });
    expect(mine.some((bet) => bet.id === bets.fromDana)).toBe(false);
    expect(mine.find((bet) => bet.id === bets.underWay)).toMatchObject({
      status: 'active',
      opponent: { id: danaId, deleted: true },
    });
    expect(mine.find((bet) => bet.id === bets.reported)).toMatchObject({
      status: 'completed',
      winnerId: annId,
    });
    expect(mine.find((bet) => bet.id === bets.settled)).toMatchObject({
      status: 'completed',
      winnerId: annId,
      opponent: { id: danaId, deleted: true },
    });
    const history = await ok(ann.get<BetHistoryEntry[]>(`/api/bets/${bets.settled}/history`));
    expect(history.map((entry) => entry.type)).toEqual([
      'BetProposed',
      'BetAccepted',
      'ResolutionSubmitted',
      'ResolutionSubmitted',
      'BetCompleted',
    ]);
    expect(history[1]!.actorName).toBe('Deleted user');
    expect(JSON.stringify(history)).not.toContain(DANA.firstName);
    // Nobody to bet with any more: she leaves Ann's friends.
    expect(await ok(ann.get<User[]>('/api/friends'))).toEqual([]);
    const tooLate = await ann.post('/api/bets', {
      title: 'Sun in July',
      description: 'Between us',
      wagerType: 'custom',
      wagerDescription: 'Dinner',
      opponentId: danaId,
    });
    expect(tooLate.status).toBe(409);
    expect(tooLate.text).toContain('This person has deleted their account');
  });

  it('leaves no plaintext of the email or name anywhere in the database', async () => {
    // The search finds what is there: Ann's address is in the users read model.
    expect(await whereFound(db, ANN.email)).not.toEqual([]);
    for (const needle of [DANA.email, DANA.firstName, DANA.lastName]) {
      expect(await whereFound(db, needle), needle).toEqual([]);
    }
  });

  it('keeps the hash chains whole and the read models the same through a rebuild', async () => {
    const verified = await runScript('audit', ['verify'], app.databaseUrl);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('0 broken');

    const before = await ok(ann.get<Bet[]>('/api/bets'));
    await rebuild(app, allProjectors);
    await app.settled();
    expect(await ok(ann.get<Bet[]>('/api/bets'))).toEqual(before);
    expect(await ok(ann.get<User[]>('/api/friends'))).toEqual([]);
    for (const needle of [DANA.email, DANA.firstName, DANA.lastName]) {
      expect(await whereFound(db, needle), needle).toEqual([]);
    }
  });

  it('sends an invitation to an erased address to nobody, and records no delivery', async () => {
    const delivered = async () =>
      (
        await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM es_events WHERE type = 'InviteDelivered'`,
        )
      ).rows[0]!.n;
    const before = await delivered();
    const mailsBefore = smtp.received.length;
    const resent = await ann.post(`/api/bets/${bets.invited}/resend-invite`);
    expect(resent.status, resent.text).toBeLessThan(300);
    await app.drained();
    expect(await delivered()).toBe(before);
    expect(smtp.received.slice(mailsBefore).filter((mail) => mail.to.includes(DANA.email))).toEqual(
      [],
    );
  });

  it('lets the person sign up again with the same email, as a new account', async () => {
    const again = await signInThroughSmtp(app.url, smtp, DANA.email);
    await app.settled();
    const me = await ok(again.get<User>('/api/auth/user'));
    expect(me.id).not.toBe(danaId);
    expect(me).toMatchObject({ email: DANA.email, firstName: null, lastName: null });
    expect(await ok(again.get<User[]>('/api/friends'))).toEqual([]);
    expect(await ok(again.get<Bet[]>('/api/bets'))).toEqual([]);
  });
});
