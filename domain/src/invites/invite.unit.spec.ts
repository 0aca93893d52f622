import { describe, it } from 'vitest';
import type { InviteEvent, InviteSent } from '@wagers/contracts/events/invite';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import { inviteDecider, type InviteCommand } from './invite.ts';

const spec = deciderSpec(inviteDecider);
const inviter = '11111111-1111-4111-8111-111111111111';
const friend = '22222222-2222-4222-8222-222222222222';
const stranger = '33333333-3333-4333-8333-333333333333';
const at = '2025-10-25T12:00:00.000Z';

const send = (
  overrides: Partial<Extract<InviteCommand, { type: 'SendInvite' }>['data']> = {},
): InviteCommand => ({
  type: 'SendInvite',
  data: {
    code: 'code1',
    inviterId: inviter,
    inviterName: 'Ann Lee',
    inviterEmail: 'ann@example.com',
    inviterPhone: null,
    inviteeEmail: 'bob@example.com',
    inviteePhone: null,
    phoneOptedOut: false,
    betId: null,
    message: null,
    at,
    requestHash: null,
    signedLink: false,
    ...overrides,
  },
});

const sentByEmail: InviteSent = {
  type: 'InviteSent',
  data: {
    code: 'code1',
    inviterId: inviter,
    inviterName: 'Ann Lee',
    inviteeEmail: 'bob@example.com',
    inviteePhone: null,
    smsConsent: null,
    betId: null,
    message: null,
  },
};
const sentBySms: InviteEvent = {
  type: 'InviteSent',
  data: {
    ...sentByEmail.data,
    inviteeEmail: null,
    inviteePhone: '+14155550123',
    smsConsent: { givenBy: inviter, givenAt: at },
  },
};
const accepted: InviteEvent = {
  type: 'InviteAccepted',
  data: { code: 'code1', inviterId: inviter, acceptedBy: friend, betId: null },
};

describe('invite decider', () => {
  describe('no invite yet', () => {
    it('sends an email invite', () => spec.given([]).when(send()).then([sentByEmail]));

    it('sends an SMS invite, recording who gave consent and when', () =>
      spec
        .given([])
        .when(send({ inviteeEmail: null, inviteePhone: '+14155550123' }))
        .then([sentBySms]));

    it('keeps the bet and the message', () =>
      spec
        .given([])
        .when(send({ betId: 'bet-1', message: 'Loser buys lunch' }))
        .then([
          {
            type: 'InviteSent',
            data: { ...sentByEmail.data, betId: 'bet-1', message: 'Loser buys lunch' },
          },
        ]));

    it('refuses a number that replied STOP, saying so', () =>
      spec
        .given([])
        .when(send({ inviteeEmail: null, inviteePhone: '+14155550123', phoneOptedOut: true }))
        .thenFails('validation_failed', /opted out/));

    it('refuses inviting yourself', () =>
      spec
        .given([])
        .when(send({ inviteeEmail: 'ann@example.com' }))
        .thenFails('validation_failed', /yourself/));

    it('refuses inviting the number on your own profile', () =>
      spec
        .given([])
        .when(
          send({ inviteeEmail: null, inviteePhone: '+14155550100', inviterPhone: '+14155550100' }),
        )
        .thenFails('validation_failed', /yourself/));

    it('cannot resend, accept or record a delivery', () => {
      spec
        .given([])
        .when({ type: 'ResendInvite', data: { actorId: inviter, phoneOptedOut: false } })
        .thenFails('not_found');
      spec
        .given([])
        .when({
          type: 'AcceptInvite',
          data: { actorId: friend, inviterDeleted: false, signedLink: false },
        })
        .thenFails('not_found');
      spec
        .given([])
        .when({ type: 'RecordDelivery', data: { deliveryId: 'e1', channel: 'email' } })
        .thenFails('not_found');
    });
  });

  describe('pending', () => {
    it('refuses a second InviteSent on the same code', () =>
      spec.given([sentByEmail]).when(send()).thenFails('conflict'));

    it('takes the same Idempotency-Key request again as done, and refuses a different one', () => {
      const keyed: InviteSent = {
        ...sentByEmail,
        data: { ...sentByEmail.data, requestHash: 'abc' },
      };
      spec
        .given([])
        .when(send({ requestHash: 'abc' }))
        .then([keyed]);
      spec
        .given([keyed])
        .when(send({ requestHash: 'abc' }))
        .then([]);
      spec
        .given([keyed])
        .when(send({ requestHash: 'def', inviteeEmail: 'carl@example.com' }))
        .thenFails('conflict');
      spec
        .given([keyed])
        .when(send({ requestHash: 'abc', inviterId: friend }))
        .thenFails('conflict');
    });

    it('lets the inviter resend', () =>
      spec
        .given([sentByEmail])
        .when({ type: 'ResendInvite', data: { actorId: inviter, phoneOptedOut: false } })
        .then([{ type: 'InviteResent', data: { code: 'code1', signedLink: true } }]));

    it('lets the system resend', () =>
      spec
        .given([sentByEmail])
        .when({ type: 'ResendInvite', data: { actorId: null, phoneOptedOut: false } })
        .then([{ type: 'InviteResent', data: { code: 'code1', signedLink: true } }]));

    it('does not let anyone else resend', () =>
      spec
        .given([sentByEmail])
        .when({ type: 'ResendInvite', data: { actorId: friend, phoneOptedOut: false } })
        .thenFails('forbidden'));

    it('does not resend an SMS to a number that opted out since', () =>
      spec
        .given([sentBySms])
        .when({ type: 'ResendInvite', data: { actorId: inviter, phoneOptedOut: true } })
        .thenFails('validation_failed', /opted out/));

    it('is accepted by someone else', () =>
      spec
        .given([sentByEmail])
        .when({
          type: 'AcceptInvite',
          data: { actorId: friend, inviterDeleted: false, signedLink: false },
        })
        .then([accepted]));

    it('is not accepted by its inviter', () =>
      spec
        .given([sentByEmail])
        .when({
          type: 'AcceptInvite',
          data: { actorId: inviter, inviterDeleted: false, signedLink: false },
        })
        .thenFails('forbidden'));

    it('is not accepted once its inviter deleted their account', () =>
      spec
        .given([sentByEmail])
        .when({
          type: 'AcceptInvite',
          data: { actorId: friend, inviterDeleted: true, signedLink: false },
        })
        .thenFails('conflict', /deleted their account/));

    it('sent since links are signed, opens only with its signed link', () => {
      const signed: InviteEvent = {
        type: 'InviteSent',
        data: { ...sentByEmail.data, signedLink: true },
      };
      spec
        .given([])
        .when(send({ signedLink: true }))
        .then([signed]);
      spec
        .given([signed])
        .when({
          type: 'AcceptInvite',
          data: { actorId: friend, inviterDeleted: false, signedLink: false },
        })
        .thenFails('not_found');
      spec
        .given([signed])
        .when({
          type: 'AcceptInvite',
          data: { actorId: friend, inviterDeleted: false, signedLink: true },
        })
        .then([accepted]);
    });

    it('sent before links were signed, opens with its code until it is resent, then only with its signed link', () => {
      const legacyAccept: InviteCommand = {
        type: 'AcceptInvite',
        data: { actorId: friend, inviterDeleted: false, signedLink: false },
      };
      spec.given([sentByEmail]).when(legacyAccept).then([accepted]);
      const resent: InviteEvent = {
        type: 'InviteResent',
        data: { code: 'code1', signedLink: true },
      };
      spec.given([sentByEmail, resent]).when(legacyAccept).thenFails('not_found');
      spec
        .given([sentByEmail, resent])
        .when({ ...legacyAccept, data: { ...legacyAccept.data, signedLink: true } })
        .then([accepted]);
      // A resend made before resends were signed left it open to its code.
      spec
        .given([sentByEmail, { type: 'InviteResent', data: { code: 'code1' } }])
        .when(legacyAccept)
        .then([accepted]);
    });

    it('sent before links were signed, is sealed by an operator: closed to its code, nothing sent, its inviter can send it again', () => {
      const seal: InviteCommand = { type: 'SealInvite', data: { actorId: null } };
      const sealed: InviteEvent = { type: 'InviteSealed', data: { code: 'code1' } };
      const legacyAccept: InviteCommand = {
        type: 'AcceptInvite',
        data: { actorId: friend, inviterDeleted: false, signedLink: false },
      };
      spec.given([sentByEmail]).when(seal).then([sealed]);
      spec.given([sentByEmail, sealed]).when(seal).thenNothing();
      spec.given([sentByEmail, sealed]).when(legacyAccept).thenFails('not_found');
      spec
        .given([sentByEmail, sealed])
        .when({ type: 'ResendInvite', data: { actorId: inviter, phoneOptedOut: false } })
        .then([{ type: 'InviteResent', data: { code: 'code1', signedLink: true } }]);
      // Sent with a signed link, it has nothing to seal.
      spec
        .given([{ type: 'InviteSent', data: { ...sentByEmail.data, signedLink: true } }])
        .when(seal)
        .thenNothing();
      spec.given([]).when(seal).thenFails('not_found');
      spec
        .given([sentByEmail, accepted])
        .when(seal)
        .thenFails('conflict', /already been accepted/);
    });

    it('records a delivery once', () => {
      const delivered: InviteEvent = {
        type: 'InviteDelivered',
        data: { code: 'code1', deliveryId: 'e1', channel: 'email' },
      };
      spec
        .given([sentByEmail])
        .when({ type: 'RecordDelivery', data: { deliveryId: 'e1', channel: 'email' } })
        .then([delivered]);
      spec
        .given([sentByEmail, delivered])
        .when({ type: 'RecordDelivery', data: { deliveryId: 'e1', channel: 'email' } })
        .thenNothing();
    });

    it('records a failure once, and not after a success', () => {
      const failure = { deliveryId: 'e1', channel: 'email' as const, reason: 'SMTP 550' };
      const failed: InviteEvent = {
        type: 'InviteDeliveryFailed',
        data: { code: 'code1', ...failure },
      };
      spec
        .given([sentByEmail])
        .when({ type: 'RecordDeliveryFailure', data: failure })
        .then([failed]);
      spec
        .given([sentByEmail, failed])
        .when({ type: 'RecordDeliveryFailure', data: failure })
        .thenNothing();
      spec
        .given([
          sentByEmail,
          { type: 'InviteDelivered', data: { code: 'code1', deliveryId: 'e1', channel: 'email' } },
        ])
        .when({ type: 'RecordDeliveryFailure', data: failure })
        .thenNothing();
    });

    it('records a delivery after an operator retried a failed one', () =>
      spec
        .given([
          sentByEmail,
          {
            type: 'InviteDeliveryFailed',
            data: { code: 'code1', deliveryId: 'e1', channel: 'email', reason: 'x' },
          },
        ])
        .when({ type: 'RecordDelivery', data: { deliveryId: 'e1', channel: 'email' } })
        .then([
          { type: 'InviteDelivered', data: { code: 'code1', deliveryId: 'e1', channel: 'email' } },
        ]));
  });

  describe('accepted', () => {
    const acceptBy = (actorId: string, inviterDeleted = false) =>
      ({
        type: 'AcceptInvite',
        data: { actorId, inviterDeleted, signedLink: false },
      }) as const;

    it('takes a second accept by the same person (a lost answer, a second tab) as done', () => {
      spec.given([sentByEmail, accepted]).when(acceptBy(friend)).thenNothing();
      // Even once the inviter has deleted their account: they were friends by then.
      spec.given([sentByEmail, accepted]).when(acceptBy(friend, true)).thenNothing();
    });

    it('refuses an accept by anyone else', () =>
      spec
        .given([sentByEmail, accepted])
        .when(acceptBy(stranger))
        .thenFails('conflict', /already been accepted/));

    it('refuses a resend', () =>
      spec
        .given([sentByEmail, accepted])
        .when({ type: 'ResendInvite', data: { actorId: inviter, phoneOptedOut: false } })
        .thenFails('conflict'));
  });
});
