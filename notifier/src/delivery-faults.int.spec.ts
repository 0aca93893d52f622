import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '@wagers/contracts/events/envelope';
import { inviteAggregate } from '@wagers/domain/invites/invite';
import { preferencesAggregate } from '@wagers/domain/notifications/preferences';
import { userAggregate } from '@wagers/domain/users/user';
import { handle } from '@wagers/platform/aggregate';
import { toEventData, type CommandContext } from '@wagers/platform/decider';
import { readBuilds } from '@wagers/platform/projections/checkpoints';
import type { RunningProjector } from '@wagers/platform/projections/runner';
import type { Runtime } from '@wagers/platform/runtime';
import { eventually } from '@wagers/test-support/log';
import {
  authenticationRefusal,
  startTestTwilioApi,
  type TestTwilioApi,
} from '@wagers/test-support/twilio-api';
import { startInviteDispatcher } from './dispatcher.ts';
import { inviteDelivery } from './invite-delivery.ts';
import {
  NOTIFICATIONS_DISPATCHER_NAME,
  noticeJobId,
  queueTextOn,
  startNotificationsDispatcher,
  textJobId,
} from './notifications/dispatcher.ts';
import { createSmsSender } from './sms.ts';
import { openNotifierHarness, PUBLIC_URL, type NotifierHarness } from './test-support/harness.ts';
import { flakyStore } from './testing/flaky-store.ts';

/**
 * Invites and notices when things go wrong, through real PostgreSQL, Redis (BullMQ), an SMTP
 * server and the Twilio stand-in: what each recipient gets, and what the log records.
 */
let harness: NotifierHarness;
let twilioApi: TestTwilioApi;
let inviteDispatcher: RunningProjector;

const runtime: Runtime = { now: () => new Date(), newId: randomUUID };

let failNextAppend: Set<string>;

const context = (actorId: string | null = null): CommandContext => ({
  actorId,
  correlationId: randomUUID(),
  now: runtime.now(),
  newId: randomUUID,
});

const inviter = { id: randomUUID(), name: 'Ann Lee', email: 'ann@example.com' };

/** Ann invites `to` (an email address or an E.164 number), maybe to a bet; returns the code. */
async function invite(to: string, betId: string | null = null): Promise<string> {
  const code = `code${randomBytes(6).toString('hex')}`;
  const phone = to.startsWith('+') ? to : null;
  await handle(
    harness.store,
    inviteAggregate,
    code,
    {
      type: 'SendInvite',
      data: {
        code,
        inviterId: inviter.id,
        inviterName: inviter.name,
        inviterEmail: inviter.email,
        inviterPhone: null,
        inviteeEmail: phone ? null : to,
        inviteePhone: phone,
        phoneOptedOut: false,
        betId,
        message: null,
        at: runtime.now().toISOString(),
        requestHash: null,
        signedLink: true,
      },
    },
    context(inviter.id),
  );
  return code;
}

const typesOn = async (stream: string) =>
  (await harness.store.readStream(stream)).map((event) => event.type);

/** Waits until the invite's first delivery job has finished (done or failed for good). */
async function deliveryFinished(code: string): Promise<string> {
  const [sent] = await harness.store.readStream(`invite-${code}`);
  let state = '';
  await eventually(async () => {
    state = (await (await harness.queue.getJob(sent!.id))?.getState()) ?? '';
    return state === 'completed' || state === 'failed';
  }, `the delivery job of ${code}`);
  return state;
}

const mailsTo = (to: string) => harness.smtp.received.filter((mail) => mail.to.includes(to));
/** The texts the Twilio stand-in accepted for `to`: those that went out. */
const textsTo = (to: string) => twilioApi.sent.filter((request) => request.form.To === to);

beforeAll(async () => {
  harness = await openNotifierHarness();
  twilioApi = await startTestTwilioApi();
  const sms = createSmsSender(
    {
      accountSid: `AC${'0123456789abcdef'.repeat(2)}`,
      authToken: 'test-auth-token-0123456789',
      from: '+15005550006',
      apiUrl: twilioApi.url,
    },
    harness.pool,
  );
  const flaky = flakyStore(harness.store);
  const workerStore = flaky.store;
  failNextAppend = flaky.failNextAppend;
  harness.startWorker({
    sms,
    invites: inviteDelivery({
      store: workerStore,
      pool: harness.pool,
      mailer: harness.mailer,
      sms,
      runtime,
      logger: harness.logger,
      publicUrl: () => PUBLIC_URL,
    }),
    notices: { store: workerStore, sms, now: runtime.now },
    concurrency: 2,
  });
  inviteDispatcher = startInviteDispatcher(harness);
});

afterAll(async () => {
  await inviteDispatcher?.stop();
  await harness?.close();
  await twilioApi?.stop();
});

/** Someone with a number, consent to texts, and texts on for proposals. */
async function personWithPhone(phone: string) {
  const id = randomUUID();
  await handle(
    harness.store,
    userAggregate,
    id,
    { type: 'RegisterUser', data: { userId: id, email: `${id}@example.com` } },
    context(id),
  );
  await handle(
    harness.store,
    userAggregate,
    id,
    {
      type: 'SetPhone',
      data: { userId: id, phone, smsConsent: true, at: runtime.now().toISOString() },
    },
    context(id),
  );
  await handle(
    harness.store,
    preferencesAggregate,
    id,
    {
      type: 'SetSmsNotifications',
      data: { userId: id, kind: 'bet_proposed', sms: true, via: 'profile' },
    },
    context(id),
  );
  return { id, phone, eventId: randomUUID() };
}

/** The text of a notice to `person` (as a notice's job queues it), about a new event each time. */
async function noticeText(person: { id: string; eventId: string }) {
  person.eventId = randomUUID();
  await queueTextOn(harness.queue)({
    kind: 'notice',
    channel: 'sms',
    eventId: person.eventId,
    eventType: 'BetProposed',
    actorId: inviter.id,
    recipientId: person.id,
    notification: 'bet_proposed',
    betId: null,
  });
}

describe("a bet's invite", () => {
  /** A bet Ann proposed to a newcomer, with its invite code attached, then `ending`. */
  async function betProposedTo(to: string, ending: DomainEvent | null) {
    const betId = randomUUID();
    const events: DomainEvent[] = [
      {
        type: 'BetProposed',
        data: {
          betId,
          creatorId: inviter.id,
          opponentId: null,
          inviteeEmail: to.startsWith('+') ? null : to,
          inviteePhone: to.startsWith('+') ? to : null,
          smsConsent: to.startsWith('+'),
          title: 'Rain on Sunday',
          description: 'It will rain',
          wagerType: 'custom',
          wagerAmountCents: null,
          wagerDescription: 'A pizza',
          endDate: null,
          validationMode: 'both',
        },
      },
      { type: 'BetInviteAttached', data: { inviteCode: `code${randomUUID()}` } },
      ...(ending ? [ending] : []),
    ];
    await harness.store.appendToStream(
      `bet-${betId}`,
      events.map((event) => toEventData(event, context(inviter.id))),
      { expectedRevision: 'no_stream' },
    );
    return betId;
  }

  it('is not delivered once the bet was deleted or declined before the worker got to it', async () => {
    const deleted = await betProposedTo('nora@example.com', {
      type: 'BetDeleted',
      data: { deletedBy: inviter.id },
    });
    const declined = await betProposedTo('+14155550101', {
      type: 'BetDeclined',
      data: { opponentId: inviter.id },
    });
    const open = await betProposedTo('olga@example.com', null);
    const codes = [
      await invite('nora@example.com', deleted),
      await invite('+14155550101', declined),
      await invite('olga@example.com', open),
    ];
    for (const code of codes) expect(await deliveryFinished(code)).toBe('completed');
    expect(mailsTo('nora@example.com')).toEqual([]);
    expect(textsTo('+14155550101')).toEqual([]);
    expect(mailsTo('olga@example.com').map((mail) => mail.subject)).toEqual([
      expect.stringContaining('Ann Lee'),
    ]);
    expect(await typesOn(`invite-${codes[0]}`)).toEqual(['InviteSent']);
    expect(await typesOn(`invite-${codes[1]}`)).toEqual(['InviteSent']);
    expect(await typesOn(`invite-${codes[2]}`)).toEqual(['InviteSent', 'InviteDelivered']);
  });
});

describe('a delivery whose record fails', () => {
  for (const to of ['pia@example.com', '+14155550102']) {
    it(`is recorded on the retry, not sent again (${to.startsWith('+') ? 'SMS' : 'email'})`, async () => {
      const code = await invite(to);
      // The worker's first append to this invite (the record of its delivery) fails once.
      failNextAppend.add(`invite-${code}`);
      await eventually(
        async () => (await typesOn(`invite-${code}`)).includes('InviteDelivered'),
        'InviteDelivered',
      );
      expect(failNextAppend.has(`invite-${code}`), 'the record failed once').toBe(false);
      expect(await deliveryFinished(code)).toBe('completed');
      expect(to.startsWith('+') ? textsTo(to).length : mailsTo(to).length).toBe(1);
      expect(await typesOn(`invite-${code}`)).toEqual(['InviteSent', 'InviteDelivered']);
    });
  }
});

describe('a refusal of our own credentials', () => {
  it('is retried, not recorded against the invitee: the text goes out once when it is accepted', async () => {
    const to = '+14155550103';
    twilioApi.refuseNext.push(authenticationRefusal);
    const code = await invite(to);
    await eventually(
      async () => (await typesOn(`invite-${code}`)).includes('InviteDelivered'),
      'InviteDelivered',
    );
    expect(twilioApi.refuseNext, 'the stand-in refused once').toEqual([]);
    expect(twilioApi.requests.filter((request) => request.form.To === to)).toHaveLength(2);
    expect(textsTo(to)).toHaveLength(1);
    expect(await typesOn(`invite-${code}`)).toEqual(['InviteSent', 'InviteDelivered']);
  });

  it("is retried for a notice's text too, which then goes out once", async () => {
    const person = await personWithPhone('+14155550104');
    twilioApi.refuseNext.push(authenticationRefusal);
    await noticeText(person);
    await eventually(
      () => Promise.resolve(textsTo('+14155550104').length === 1),
      "the notice's text",
    );
    const jobId = textJobId(person.eventId, person.id);
    await eventually(
      async () => (await harness.queue.getJobState(jobId)) === 'completed',
      'the text job done',
    );
    expect((await harness.queue.getJob(jobId))?.attemptsMade).toBe(2);
  });
});

describe('notification texts to one number', () => {
  it('stop for the day after 20; the emails still go', async () => {
    const person = await personWithPhone('+14155550105');
    const notices = Array.from({ length: 21 }, () => randomUUID());
    for (const eventId of notices)
      await harness.queue.add(
        'notice',
        {
          kind: 'notice',
          eventId,
          eventType: 'BetProposed',
          actorId: inviter.id,
          recipientId: person.id,
          notification: 'bet_proposed',
          betId: null,
        },
        { jobId: noticeJobId(eventId, person.id) },
      );
    await eventually(async () => {
      const states = await Promise.all(
        notices.map((eventId) => harness.queue.getJobState(textJobId(eventId, person.id))),
      );
      return states.every((state) => state === 'completed');
    }, 'every text job done');
    // A notice's job queues its text before it sends the email: wait for the emails too.
    await harness.smtp.waitFor(
      () => mailsTo(`${person.id}@example.com`).length === 21,
      'every email',
    );
    expect(textsTo('+14155550105')).toHaveLength(20);
    expect(twilioApi.requests.filter((request) => request.form.To === '+14155550105')).toHaveLength(
      20,
    );
  });
});

describe("the notifications dispatcher's first start", () => {
  it('tells nobody of what the log held before it; what comes after, it does', async () => {
    const person = await personWithPhone('+14155550106');
    /** Ann proposes a bet to the person (a friend): a `bet_proposed` notice to them. */
    const propose = async (title: string) => {
      const betId = randomUUID();
      await harness.store.appendToStream(
        `bet-${betId}`,
        [
          toEventData(
            {
              type: 'BetProposed',
              data: {
                betId,
                creatorId: inviter.id,
                opponentId: person.id,
                inviteeEmail: null,
                inviteePhone: null,
                smsConsent: false,
                title,
                description: 'A bet between friends',
                wagerType: 'custom',
                wagerAmountCents: null,
                wagerDescription: 'Coffee',
                endDate: null,
                validationMode: 'both',
              },
            },
            context(inviter.id),
          ),
        ],
        { expectedRevision: 'no_stream' },
      );
      return (await harness.store.readStream(`bet-${betId}`))[0]!.id;
    };
    const old = await propose('Old news');
    const notices = startNotificationsDispatcher(harness);
    try {
      await eventually(
        async () =>
          (await readBuilds(harness.pool)).some(
            (row) => row.name === NOTIFICATIONS_DISPATCHER_NAME,
          ),
        "the dispatcher's checkpoint",
      );
      const fresh = await propose('Fresh news');
      await harness.smtp.waitFor(
        (mails) => mails.some((mail) => mail.subject.includes('Fresh news')),
        'the notice of the new bet',
      );
      await eventually(
        async () => (await harness.queue.getJobState(textJobId(fresh, person.id))) === 'completed',
        'the text of the new bet',
      );
      expect(await harness.queue.getJob(noticeJobId(old, person.id))).toBeUndefined();
      expect(harness.smtp.received.filter((mail) => mail.subject.includes('Old news'))).toEqual([]);
      expect(textsTo('+14155550106').map((text) => text.form.Body)).toEqual([
        expect.stringContaining('Fresh news'),
      ]);
    } finally {
      await notices.stop();
    }
  });
});
