import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateInviteResponse, InviteView } from '@wagers/contracts/api/invites';
import type { User } from '@wagers/contracts/api/user';
import { openedStreamEvents } from '../../test-support/opened-events.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../test-support/test-app.ts';
import { rewindFollowerOf } from '../../test-support/rewind.ts';
import { randomUUID } from 'node:crypto';
import { inviteAggregate } from '@wagers/domain/invites/invite';
import { handle } from '@wagers/platform/aggregate';
import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { DISPATCHER_NAME } from '@wagers/notifier/dispatcher';
import { eventually, queryDb, streamEvents } from '@wagers/test-support/log';
import { inviteCodeOfLink, inviteStreamOfLink } from '@wagers/test-support/invites';
import { signInThroughSmtp } from './sign-in-through-smtp.ts';
import { runScript } from '../../test-support/run-script.ts';
import { sendUnsignedInvite } from '../../test-support/unsigned-invite.ts';
import { startTestSmtpServer, type TestSmtpServer } from '@wagers/test-support/smtp';

describe('email invitations through a real SMTP server', () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  let ann: ApiClient;
  let annId: string;

  const signIn = (email: string) => signInThroughSmtp(app.url, smtp, email);
  const mailsTo = (email: string) =>
    smtp.received.filter(
      (mail) => mail.to.includes(email) && !mail.text.includes('/api/login/verify'),
    );
  const eventCount = async () =>
    Number(
      (await queryDb<{ n: string }>(app.databaseUrl, 'SELECT count(*) AS n FROM es_events'))[0]!.n,
    );

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    app = await startTestApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Wagers <invites@wagers.test>' },
    });
    ann = await signIn('ann@example.com');
    expect((await ann.put('/api/user', { firstName: 'Ann', lastName: 'Lee' })).status).toBe(200);
    annId = (await ann.get<User>('/api/auth/user')).body.id;
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  it('emails the invitee a link naming the inviter, and records the delivery', async () => {
    const sent = await ann.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'Newbie@Example.com',
      message: 'Join me!',
    });
    expect(sent.status).toBe(201);
    expect(sent.headers.get('x-wagers-position')).toBeTruthy();
    const { code, inviteLink } = sent.body;
    expect(Buffer.from(inviteCodeOfLink(code), 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(inviteLink).toBe(`${app.url}/invite/${code}`);

    await smtp.waitFor(() => mailsTo('newbie@example.com').length > 0, 'the invitation email');
    const [mail] = mailsTo('newbie@example.com');
    expect(mail!.from).toBe('invites@wagers.test');
    expect(mail!.subject).toContain('Ann Lee');
    expect(mail!.text).toContain('Ann Lee');
    expect(mail!.text).toContain(inviteLink);
    expect(mail!.text).toContain('Join me!');
    expect(mail!.html).toContain(`href="${inviteLink}"`);

    await eventually(
      async () =>
        (await streamEvents(app.databaseUrl, inviteStreamOfLink(code))).some(
          (e) => e.type === 'InviteDelivered',
        ),
      'InviteDelivered',
    );
    const events = await openedStreamEvents(app.databaseUrl, inviteStreamOfLink(code));
    expect(events.map((e) => e.type)).toEqual(['InviteSent', 'InviteDelivered']);
    expect(events[0]!.data).toMatchObject({
      inviterId: annId,
      inviterName: 'Ann Lee',
      inviteeEmail: 'newbie@example.com',
      smsConsent: null,
    });
    expect(events[1]!.data).toMatchObject({ deliveryId: events[0]!.id, channel: 'email' });
    // Stored, the address and the inviter's name are sealed (decision 0018).
    const [stored] = await streamEvents(app.databaseUrl, inviteStreamOfLink(code));
    expect(JSON.stringify(stored!.data)).not.toMatch(/newbie@example\.com|Ann Lee/);
  });

  it('shows the invite to anyone holding the code, and lets the invitee accept it once', async () => {
    const sent = await ann.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'joiner@example.com',
    });
    const code = sent.body.code;
    const visitor = app.anonymous();
    visitor.position = ann.position;
    const view = await visitor.get<InviteView>(`/api/invites/${code}`);
    expect(view.status).toBe(200);
    expect(view.body).toEqual({
      code,
      status: 'pending',
      inviter: {
        firstName: 'Ann',
        lastName: 'Lee',
        email: 'ann@example.com',
        profileImageUrl: null,
      },
    });

    expect((await ann.post(`/api/invites/${code}/accept`)).status).toBe(403);
    expect((await visitor.post(`/api/invites/${code}/accept`)).status).toBe(401);

    const joiner = await signIn('joiner@example.com');
    const accepted = await joiner.post<{ friendId: string; betId: string | null }>(
      `/api/invites/${code}/accept`,
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ friendId: annId, betId: null });
    expect(accepted.headers.get('x-wagers-position')).toBeTruthy();
    expect((await joiner.get<User[]>('/api/friends')).body.map((u) => u.id)).toEqual([annId]);
    ann.position = joiner.position;
    expect((await ann.get<User[]>('/api/friends')).body.map((u) => u.email)).toContain(
      'joiner@example.com',
    );
    expect((await joiner.get<InviteView>(`/api/invites/${code}`)).body.status).toBe('accepted');

    // The joiner again (the answer lost, a second tab): the same answer; anyone else is refused.
    const again = await joiner.post(`/api/invites/${code}/accept`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(accepted.body);
    const stranger = await signIn('stranger@example.com');
    expect((await stranger.post(`/api/invites/${code}/accept`)).status).toBe(409);
    const accepts = (await streamEvents(app.databaseUrl, inviteStreamOfLink(code))).filter(
      (e) => e.type === 'InviteAccepted',
    );
    expect(accepts).toHaveLength(1);
    expect((await stranger.get<User[]>('/api/friends')).body).toEqual([]);
  });

  it('sends a retried invitation (same Idempotency-Key) once and answers like the first', async () => {
    const body = { inviteeEmail: 'retried@example.com', message: 'Come bet' };
    const headers = { 'Idempotency-Key': 'invite-retry-1' };
    const before = await eventCount();
    const burst = await Promise.all(
      Array.from({ length: 6 }, () =>
        ann.post<CreateInviteResponse>('/api/invites', body, headers),
      ),
    );
    for (const response of burst) expect(response.status, response.text).toBe(201);
    expect(new Set(burst.map((response) => response.body.code)).size).toBe(1);
    const later = await ann.post<CreateInviteResponse>('/api/invites', body, headers);
    expect(later.body).toEqual(burst[0]!.body);
    await smtp.waitFor(() => mailsTo('retried@example.com').length > 0, 'the invitation email');
    await eventually(async () => (await eventCount()) === before + 2, 'sent and delivered');
    await app.settled();
    expect(mailsTo('retried@example.com')).toHaveLength(1);

    const other = await ann.post<{ message: string }>(
      '/api/invites',
      { inviteeEmail: 'someone-else@example.com' },
      headers,
    );
    expect(other.status).toBe(409);
    expect(other.body.message).toMatch(/already used for a different invite/);
    const fresh = await ann.post<CreateInviteResponse>('/api/invites', body, {
      'Idempotency-Key': 'invite-retry-2',
    });
    expect(fresh.status).toBe(201);
    expect(fresh.body.code).not.toBe(burst[0]!.body.code);
    await eventually(async () => (await eventCount()) === before + 4, 'the second one delivered');
    const bad = await ann.post('/api/invites', body, { 'Idempotency-Key': 'has space' });
    expect(bad.status).toBe(400);
  });

  it('answers 404 for an unknown code', async () => {
    expect((await app.anonymous().get('/api/invites/doesNotExistAtAll123')).status).toBe(404);
    expect((await app.anonymous().get('/api/invites/x')).status).toBe(404);
    expect((await ann.post('/api/invites/doesNotExistAtAll123/accept')).status).toBe(404);
    expect((await ann.post('/api/invites/x/accept')).status).toBe(404);
  });

  it('opens only with its link: the code the event log shows, or a forged signature, finds nothing', async () => {
    const sent = await ann.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'linked@example.com',
    });
    const linkCode = sent.body.code;
    const logged = inviteCodeOfLink(linkCode);
    const [stored] = await streamEvents(app.databaseUrl, inviteStreamOfLink(linkCode));
    expect(stored!.data).toMatchObject({ code: logged, signedLink: true });
    expect(linkCode).not.toBe(logged);
    expect(JSON.stringify(stored)).not.toContain(linkCode);
    const forged = `${logged}.${'A'.repeat(22)}`;

    const visitor = app.anonymous();
    visitor.position = ann.position;
    const other = await signIn('log-reader@example.com');
    for (const code of [logged, forged, `${logged}.`, `${logged}.${'A'.repeat(21)}`]) {
      expect((await visitor.get(`/api/invites/${code}`)).status, code).toBe(404);
      expect((await other.post(`/api/invites/${code}/accept`)).status, code).toBe(404);
    }
    expect((await visitor.get(`/api/invites/${linkCode}`)).status).toBe(200);
    expect((await other.get<User[]>('/api/friends')).body).toEqual([]);
    expect((await other.post(`/api/invites/${linkCode}/accept`)).status).toBe(200);
  });

  it('opens an invite sent before links were signed with its code alone, as its link had it', async () => {
    const { code, position } = await sendUnsignedInvite(app.databaseUrl, annId, {
      email: 'earlier@example.com',
    });
    const visitor = app.anonymous();
    visitor.position = position;
    expect((await visitor.get<InviteView>(`/api/invites/${code}`)).body.code).toBe(code);
    await smtp.waitFor(() => mailsTo('earlier@example.com').length > 0, 'the invitation email');
    expect(mailsTo('earlier@example.com')[0]!.text).toContain(`${app.url}/invite/${code}\n`);
    const earlier = await signIn('earlier@example.com');
    expect((await earlier.post(`/api/invites/${code}/accept`)).status).toBe(200);
  });

  it('closes such an invite to its code once an operator sends it again with a signed link, which then opens it', async () => {
    const { code } = await sendUnsignedInvite(app.databaseUrl, annId, {
      email: 'unsigned@example.com',
    });
    await smtp.waitFor(() => mailsTo('unsigned@example.com').length === 1, 'the first email');
    await app.settled();

    const run = await runScript('invites', ['sign-pending'], app.databaseUrl);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Resent \d+ invites? with a signed link/);
    await smtp.waitFor(() => mailsTo('unsigned@example.com').length === 2, 'the signed link');
    const linkCode = new RegExp(`${app.url}/invite/(\\S+)`).exec(
      mailsTo('unsigned@example.com')[1]!.text,
    )?.[1];
    expect(linkCode).toMatch(new RegExp(`^${code}\\.[A-Za-z0-9_-]{22}$`));
    await app.settled();
    const visitor = app.anonymous();
    expect((await visitor.get(`/api/invites/${code}`)).status).toBe(404);
    expect((await visitor.get<InviteView>(`/api/invites/${linkCode}`)).status).toBe(200);
    const invitee = await signIn('unsigned@example.com');
    expect((await invitee.post(`/api/invites/${code}/accept`)).status).toBe(404);
    expect((await invitee.post(`/api/invites/${linkCode}/accept`)).status).toBe(200);

    const again = await runScript('invites', ['sign-pending'], app.databaseUrl);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('Every pending invite opens only with its signed link.');
    await app.drained();
    expect(mailsTo('unsigned@example.com')).toHaveLength(2);
  });

  it('refuses bad input with the field named, and writes nothing', async () => {
    const before = await eventCount();
    const cases: [unknown, string[]][] = [
      [{}, ['inviteeEmail', 'inviteePhone']],
      [{ inviteeEmail: '', inviteePhone: '' }, ['inviteeEmail', 'inviteePhone']],
      [
        { inviteeEmail: 'a@example.com', inviteePhone: '+14155550123', smsConsent: true },
        ['inviteeEmail', 'inviteePhone'],
      ],
      [{ inviteeEmail: 'nope' }, ['inviteeEmail']],
      [{ inviteeEmail: 42 }, ['inviteeEmail']],
      [{ inviteeEmail: 'ann@example.com' }, ['inviteeEmail']],
      [{ inviteePhone: '4155550123', smsConsent: true }, ['inviteePhone']],
      [{ inviteePhone: '+14155550123' }, ['smsConsent']],
      [{ inviteePhone: '+14155550123', smsConsent: 'yes' }, ['smsConsent']],
      [{ inviteeEmail: 'a@example.com', message: 'x'.repeat(501) }, ['message']],
    ];
    for (const [body, fields] of cases) {
      const response = await ann.post<{ errors: { field: string }[] }>('/api/invites', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.errors.map((e) => e.field),
        JSON.stringify(body),
      ).toEqual(fields);
    }
    expect(
      (await app.anonymous().post('/api/invites', { inviteeEmail: 'a@example.com' })).status,
    ).toBe(401);
    expect(await eventCount()).toBe(before);
  });

  it('writes SMS to the development outbox when Twilio is not configured', async () => {
    const sent = await ann.post<CreateInviteResponse>('/api/invites', {
      inviteePhone: '+1 415 555 0199',
      smsConsent: true,
    });
    expect(sent.status).toBe(201);
    await eventually(async () => {
      const outbox = (await (await fetch(`${app.url}/api/dev/sms`)).json()) as {
        to: string;
        body: string;
      }[];
      return outbox.some(
        (sms) => sms.to === '+14155550199' && sms.body.includes(sent.body.inviteLink),
      );
    }, 'the SMS in the outbox');
    const page = await (await fetch(`${app.url}/dev/sms`)).text();
    expect(page).toContain('Reply STOP to opt out.');
  });

  it('delivers a resend again, as a delivery of its own', async () => {
    const sent = await ann.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'again@example.com',
    });
    await smtp.waitFor(() => mailsTo('again@example.com').length === 1, 'the invitation');
    // The mail arrives before its delivery is recorded: the resend follows the record.
    await eventually(
      async () =>
        (await streamEvents(app.databaseUrl, inviteStreamOfLink(sent.body.code))).some(
          (e) => e.type === 'InviteDelivered',
        ),
      'the first InviteDelivered',
    );
    const pool = createPool(app.databaseUrl, 2);
    const store = createEventStore(loadConfig({}), pool, app.databaseUrl);
    try {
      const context = {
        actorId: annId,
        correlationId: randomUUID(),
        now: new Date(),
        newId: randomUUID,
      };
      const resend = (actorId: string) =>
        handle(
          store,
          inviteAggregate,
          inviteCodeOfLink(sent.body.code),
          { type: 'ResendInvite', data: { actorId, phoneOptedOut: false } },
          { ...context, actorId },
        );
      await resend(annId);
      await expect(resend(randomUUID())).rejects.toMatchObject({
        code: 'forbidden',
      });
    } finally {
      await store.close();
      await pool.end();
    }
    await smtp.waitFor(
      () => mailsTo('again@example.com').length === 2,
      'the invitation sent again',
    );
    await eventually(
      async () =>
        (await streamEvents(app.databaseUrl, inviteStreamOfLink(sent.body.code))).filter(
          (e) => e.type === 'InviteDelivered',
        ).length === 2,
      'the second InviteDelivered',
    );
    const types = (await streamEvents(app.databaseUrl, inviteStreamOfLink(sent.body.code))).map(
      (e) => e.type,
    );
    expect(types).toEqual(['InviteSent', 'InviteDelivered', 'InviteResent', 'InviteDelivered']);
  });

  it('mounts neither the Twilio webhook nor the queue board when they are not configured', async () => {
    const inbound = await fetch(`${app.url}/api/sms/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'From=%2B14155550100&Body=STOP',
    });
    expect(inbound.status).toBe(404);
    const board = await fetch(`${app.url}/admin/queues/api/queues`);
    expect(await board.text()).not.toContain('"queues"');
  });

  it('never sends twice when the dispatcher reads the log again from the start', async () => {
    const sent = await ann.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'once@example.com',
    });
    await smtp.waitFor(() => mailsTo('once@example.com').length === 1, 'the invitation');
    const total = smtp.received.length;
    await rewindFollowerOf(app.databaseUrl, DISPATCHER_NAME);
    // The dispatcher's next build reads the log from the start.
    expect((await ann.post('/api/invites', { inviteeEmail: 'after@example.com' })).status).toBe(
      201,
    );
    await smtp.waitFor(() => mailsTo('after@example.com').length === 1, 'the next invitation');
    const head = async () =>
      (
        await queryDb<{ n: string }>(
          app.databaseUrl,
          `SELECT max(global_position)::text AS n FROM es_events`,
        )
      )[0]!.n;
    const target = await head();
    await eventually(async () => {
      const rows = await queryDb<{ position: string | null }>(
        app.databaseUrl,
        `SELECT c.position FROM projection_checkpoints c WHERE name = $1`,
        [DISPATCHER_NAME],
      );
      const position = rows[0]?.position;
      if (!position) return false;
      const [dispatched] = await queryDb<{ n: string }>(
        app.databaseUrl,
        `SELECT max(global_position)::text AS n FROM es_events e
         WHERE (e.transaction_id::text::numeric, e.global_position) <= ($1::numeric, $2::bigint)`,
        position.split('-'),
      );
      return dispatched?.n === target;
    }, 'the dispatcher to read the log again');
    expect(smtp.received.length).toBe(total + 1);
    expect(mailsTo('once@example.com')).toHaveLength(1);
    expect(mailsTo('newbie@example.com')).toHaveLength(1);
    expect(sent.status).toBe(201);
  });
});
