import { describe, it } from 'vitest';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import {
  accepted,
  attached,
  CODE,
  completed,
  CREATOR,
  NEWCOMER,
  OPPONENT,
  proposeCommand,
  proposed,
  proposedToNewcomer,
  STRANGER,
  submitted,
} from './bet-fixtures.ts';
import type { BetCommand } from './commands.ts';
import { betDecider } from './decide.ts';

const spec = deciderSpec(betDecider);
const accept = (actorId: string): BetCommand => ({ type: 'AcceptBet', data: { actorId } });
const decline = (actorId: string): BetCommand => ({ type: 'DeclineBet', data: { actorId } });
const remove = (actorId: string): BetCommand => ({ type: 'DeleteBet', data: { actorId } });
const resend = (actorId: string, phoneOptedOut = false): BetCommand => ({
  type: 'ResendInvite',
  data: { actorId, phoneOptedOut },
});
const join = (opponentId: string, inviteCode = CODE): BetCommand => ({
  type: 'JoinFromInvite',
  data: { opponentId, inviteCode },
});
const resolve = (
  actorId: string,
  resolution: 'creator_won' | 'opponent_won' | 'draw',
): BetCommand => ({
  type: 'SubmitResolution',
  data: { actorId, resolution },
});

describe('no bet yet', () => {
  it('proposes a money bet to a friend', () => {
    spec.given([]).when(proposeCommand()).then([proposed()]);
  });
  it('proposes a custom bet and drops a stray amount', () => {
    spec
      .given([])
      .when(
        proposeCommand({ wagerType: 'custom', wagerAmountCents: 500, wagerDescription: 'Dinner' }),
      )
      .then([
        proposed({ wagerType: 'custom', wagerAmountCents: null, wagerDescription: 'Dinner' }),
      ]);
  });
  it('proposes to a newcomer by email, in mode one, with the invite code in the same append', () => {
    spec
      .given([])
      .when(
        proposeCommand({
          opponentId: null,
          inviteeEmail: 'newcomer@example.com',
          validationMode: 'one',
        }),
      )
      .then([proposedToNewcomer({ validationMode: 'one' }), attached]);
  });
  it('proposes to a newcomer by phone with consent', () => {
    spec
      .given([])
      .when(proposeCommand({ opponentId: null, inviteePhone: '+14155550100', smsConsent: true }))
      .then([
        proposed({ opponentId: null, inviteePhone: '+14155550100', smsConsent: true }),
        attached,
      ]);
  });
  it('refuses to invite the creator themselves, before anything is written', () => {
    spec
      .given([])
      .when(proposeCommand({ opponentId: null, inviteeEmail: 'creator@example.com' }))
      .thenFails('validation_failed', /cannot invite yourself/);
  });
  it('refuses to invite the creator by the number on their profile', () => {
    spec
      .given([])
      .when(
        proposeCommand({
          opponentId: null,
          inviteePhone: '+14155550100',
          smsConsent: true,
          creatorPhone: '+14155550100',
        }),
      )
      .thenFails('validation_failed', /cannot invite yourself/);
  });
  it('refuses a phone that replied STOP', () => {
    spec
      .given([])
      .when(
        proposeCommand({
          opponentId: null,
          inviteePhone: '+14155550100',
          smsConsent: true,
          inviteePhoneOptedOut: true,
        }),
      )
      .thenFails('validation_failed', /opted out/);
  });
  it('keeps the Idempotency-Key request hash on the proposal', () => {
    spec
      .given([])
      .when(proposeCommand({ requestHash: 'abc' }))
      .then([proposed({ requestHash: 'abc' })]);
  });
  it('refuses an opponent who is not a friend', () => {
    spec
      .given([])
      .when(proposeCommand({ opponentIsFriend: false }))
      .thenFails('forbidden', /one of your friends/);
  });
  it('refuses a bet against yourself', () => {
    spec
      .given([])
      .when(proposeCommand({ opponentId: CREATOR }))
      .thenFails('forbidden', /yourself/);
  });
  it('takes an end date of today and refuses one in the past', () => {
    spec
      .given([])
      .when(proposeCommand({ endDate: '2030-06-15' }))
      .then([proposed({ endDate: '2030-06-15' })]);
    spec
      .given([])
      .when(proposeCommand({ endDate: '2030-06-13' }))
      .thenFails('validation_failed', /past/);
  });
  it('takes yesterday in UTC while it is still that day somewhere', () => {
    spec
      .given([])
      .when(proposeCommand({ endDate: '2030-06-14', proposedAt: '2030-06-15T05:00:00.000Z' }))
      .then([proposed({ endDate: '2030-06-14' })]);
  });
  it.each([accept(OPPONENT), remove(CREATOR), resend(CREATOR), resolve(CREATOR, 'draw')])(
    'answers 404 to $type',
    (command) => {
      spec
        .given([])
        .when(command)
        .thenFails('not_found', /Bet not found/);
    },
  );
  it('does not join a bet that does not exist', () => {
    spec.given([]).when(join(NEWCOMER)).thenNothing();
  });
});

describe('pending, proposed to a friend', () => {
  const given = () => spec.given([proposed()]);
  it('treats the same proposal again as a retry', () => {
    given().when(proposeCommand()).thenNothing();
  });
  it('refuses the same Idempotency-Key with a different request', () => {
    spec
      .given([proposed({ requestHash: 'abc' })])
      .when(proposeCommand({ requestHash: 'abc' }))
      .thenNothing();
    spec
      .given([proposed({ requestHash: 'abc' })])
      .when(proposeCommand({ requestHash: 'def', title: 'Something else' }))
      .thenFails('conflict', /Idempotency-Key was already used/);
  });
  it('refuses someone else reusing the bet id', () => {
    given()
      .when(proposeCommand({ creatorId: STRANGER }))
      .thenFails('conflict');
  });
  it('lets the opponent accept', () => {
    given().when(accept(OPPONENT)).then([accepted]);
  });
  it('lets the opponent decline', () => {
    given()
      .when(decline(OPPONENT))
      .then([{ type: 'BetDeclined', data: { opponentId: OPPONENT } }]);
  });
  it('does not let the creator accept or decline', () => {
    given()
      .when(accept(CREATOR))
      .thenFails('forbidden', /Only the invited opponent can accept/);
    given()
      .when(decline(CREATOR))
      .thenFails('forbidden', /Only the invited opponent can decline/);
  });
  it('lets the creator delete', () => {
    given()
      .when(remove(CREATOR))
      .then([{ type: 'BetDeleted', data: { deletedBy: CREATOR } }]);
  });
  it('does not let the opponent delete', () => {
    given()
      .when(remove(OPPONENT))
      .thenFails('forbidden', /Only the creator can delete/);
  });
  it('has no invitation to resend', () => {
    given()
      .when(resend(CREATOR))
      .thenFails('conflict', /proposed to a friend/);
    given()
      .when(resend(OPPONENT))
      .thenFails('forbidden', /Only the creator/);
  });
  it('cannot be resolved before it is accepted', () => {
    given()
      .when(resolve(CREATOR, 'creator_won'))
      .thenFails('conflict', /waiting for the opponent to accept/);
    given()
      .when(resolve(OPPONENT, 'draw'))
      .thenFails('conflict', /Only an active bet/);
  });
  it('is invisible to a stranger, whatever they try', () => {
    for (const command of [
      accept(STRANGER),
      decline(STRANGER),
      remove(STRANGER),
      resend(STRANGER),
      resolve(STRANGER, 'draw'),
    ]) {
      given()
        .when(command)
        .thenFails('not_found', /Bet not found/);
    }
  });
  it('cannot be joined through an invite', () => {
    given()
      .when(join(NEWCOMER))
      .thenFails('conflict', /someone else/);
  });
});

describe('pending, proposed to a newcomer', () => {
  const given = () => spec.given([proposedToNewcomer(), attached]);
  it('lets the creator resend the invitation, numbering each resend', () => {
    given()
      .when(resend(CREATOR))
      .then([{ type: 'BetInviteResent', data: { inviteCode: CODE, sequence: 1 } }]);
    spec
      .given([
        proposedToNewcomer(),
        attached,
        { type: 'BetInviteResent', data: { inviteCode: CODE, sequence: 1 } },
      ])
      .when(resend(CREATOR))
      .then([{ type: 'BetInviteResent', data: { inviteCode: CODE, sequence: 2 } }]);
  });
  it('takes a keyed resend again (a retry with the same Idempotency-Key) as done', () => {
    const keyed = (sequence: number): BetCommand => ({
      type: 'ResendInvite',
      data: { actorId: CREATOR, phoneOptedOut: false, sequence },
    });
    const resent = { type: 'BetInviteResent', data: { inviteCode: CODE, sequence: 1 } } as const;
    given().when(keyed(1)).then([resent]);
    spec.given([proposedToNewcomer(), attached, resent]).when(keyed(1)).thenNothing();
    spec
      .given([proposedToNewcomer(), attached, resent])
      .when(keyed(2))
      .then([{ type: 'BetInviteResent', data: { inviteCode: CODE, sequence: 2 } }]);
    // Still the creator's alone: to anyone else the bet is not there.
    spec
      .given([proposedToNewcomer(), attached, resent])
      .when({
        type: 'ResendInvite',
        data: { actorId: STRANGER, phoneOptedOut: false, sequence: 1 },
      })
      .thenFails('not_found');
  });
  it('refuses to resend by SMS to a number that replied STOP', () => {
    spec
      .given([
        proposedToNewcomer({ inviteeEmail: null, inviteePhone: '+14155550100', smsConsent: true }),
        attached,
      ])
      .when(resend(CREATOR, true))
      .thenFails('validation_failed', /opted out/);
  });
  it('asks to wait while the invitation is not attached yet', () => {
    spec
      .given([proposedToNewcomer()])
      .when(resend(CREATOR))
      .thenFails('conflict', /still being prepared/);
  });
  it('lets the newcomer join through the invite, once', () => {
    given()
      .when(join(NEWCOMER))
      .then([{ type: 'BetInviteAccepted', data: { opponentId: NEWCOMER, inviteCode: CODE } }]);
    spec
      .given([
        proposedToNewcomer(),
        attached,
        { type: 'BetInviteAccepted', data: { opponentId: NEWCOMER, inviteCode: CODE } },
      ])
      .when(join(NEWCOMER))
      .thenNothing();
  });
  it('refuses another invite code, the creator joining, and a second newcomer', () => {
    given()
      .when(join(NEWCOMER, 'wrong'))
      .thenFails('forbidden', /not for this bet/);
    given()
      .when(join(CREATOR))
      .thenFails('forbidden', /your own bet/);
    spec
      .given([
        proposedToNewcomer(),
        attached,
        { type: 'BetInviteAccepted', data: { opponentId: NEWCOMER, inviteCode: CODE } },
      ])
      .when(join(STRANGER))
      .thenFails('conflict', /already joined/);
  });
  it('has no opponent to accept or decline for the creator', () => {
    given().when(accept(CREATOR)).thenFails('forbidden');
    given().when(decline(STRANGER)).thenFails('not_found');
  });
  it('lets the creator delete it, and then nobody joins it', () => {
    given()
      .when(remove(CREATOR))
      .then([{ type: 'BetDeleted', data: { deletedBy: CREATOR } }]);
    spec
      .given([proposedToNewcomer(), attached, { type: 'BetDeleted', data: { deletedBy: CREATOR } }])
      .when(join(NEWCOMER))
      .thenNothing();
  });
});

describe('active', () => {
  const given = (mode: 'both' | 'one' = 'both') =>
    spec.given([proposed({ validationMode: mode }), accepted]);
  it('takes a repeated accept as the answer it already was', () => {
    given().when(accept(OPPONENT)).thenNothing();
  });
  it('refuses decline, delete and resend with 409 or 403', () => {
    given()
      .when(decline(OPPONENT))
      .thenFails('conflict', /already active/);
    given()
      .when(remove(CREATOR))
      .thenFails('conflict', /Only a pending bet can be deleted/);
    given().when(remove(OPPONENT)).thenFails('forbidden');
    given().when(resend(CREATOR)).thenFails('conflict');
  });
  it('mode both: the first answer waits for the other party', () => {
    given()
      .when(resolve(CREATOR, 'creator_won'))
      .then([submitted('creator', 'creator_won')]);
    given()
      .when(resolve(OPPONENT, 'draw'))
      .then([submitted('opponent', 'draw')]);
  });
  it('mode one: the first answer completes the bet', () => {
    given('one')
      .when(resolve(OPPONENT, 'opponent_won'))
      .then([submitted('opponent', 'opponent_won'), completed('opponent_won')]);
    given('one')
      .when(resolve(CREATOR, 'draw'))
      .then([submitted('creator', 'draw'), completed('draw')]);
  });
  it('an opponent who joined through an invite can resolve', () => {
    spec
      .given([
        proposedToNewcomer({ validationMode: 'one' }),
        attached,
        { type: 'BetInviteAccepted', data: { opponentId: NEWCOMER, inviteCode: CODE } },
      ])
      .when(resolve(NEWCOMER, 'opponent_won'))
      .then([
        {
          type: 'ResolutionSubmitted',
          data: { party: 'opponent', userId: NEWCOMER, resolution: 'opponent_won' },
        },
        { type: 'BetCompleted', data: { resolution: 'opponent_won', winnerId: NEWCOMER } },
      ]);
  });
  it('is invisible to a stranger', () => {
    given().when(resolve(STRANGER, 'draw')).thenFails('not_found');
  });
});

describe('awaiting resolution (mode both)', () => {
  const afterCreator = () =>
    spec.given([proposed(), accepted, submitted('creator', 'creator_won')]);
  it('a matching answer completes the bet with the winner', () => {
    afterCreator()
      .when(resolve(OPPONENT, 'creator_won'))
      .then([submitted('opponent', 'creator_won'), completed('creator_won')]);
  });
  it('a matching draw completes the bet with no winner', () => {
    spec
      .given([proposed(), accepted, submitted('opponent', 'draw')])
      .when(resolve(CREATOR, 'draw'))
      .then([submitted('creator', 'draw'), completed('draw')]);
  });
  it('a differing answer is a disagreement and the bet stays open', () => {
    afterCreator()
      .when(resolve(OPPONENT, 'opponent_won'))
      .then([
        submitted('opponent', 'opponent_won'),
        {
          type: 'ResolutionDisputed',
          data: { creatorResolution: 'creator_won', opponentResolution: 'opponent_won' },
        },
      ]);
  });
  it('the same answer again changes nothing', () => {
    afterCreator().when(resolve(CREATOR, 'creator_won')).thenNothing();
  });
  it('the first party may change their answer before the other answers', () => {
    afterCreator()
      .when(resolve(CREATOR, 'draw'))
      .then([submitted('creator', 'draw')]);
  });
  it('takes a repeated accept as done, and refuses decline and delete', () => {
    afterCreator().when(accept(OPPONENT)).thenNothing();
    afterCreator()
      .when(decline(OPPONENT))
      .thenFails('conflict', /waiting for the outcome/);
    afterCreator().when(remove(CREATOR)).thenFails('conflict');
  });
  it('is invisible to a stranger', () => {
    afterCreator().when(resolve(STRANGER, 'creator_won')).thenFails('not_found');
  });
});

describe('disputed (mode both)', () => {
  const disputed = () =>
    spec.given([
      proposed(),
      accepted,
      submitted('creator', 'creator_won'),
      submitted('opponent', 'opponent_won'),
      {
        type: 'ResolutionDisputed',
        data: { creatorResolution: 'creator_won', opponentResolution: 'opponent_won' },
      },
    ]);
  it('either party resubmitting to match completes the bet', () => {
    disputed()
      .when(resolve(CREATOR, 'opponent_won'))
      .then([submitted('creator', 'opponent_won'), completed('opponent_won')]);
    disputed()
      .when(resolve(OPPONENT, 'creator_won'))
      .then([submitted('opponent', 'creator_won'), completed('creator_won')]);
  });
  it('a third different answer is still a disagreement', () => {
    disputed()
      .when(resolve(CREATOR, 'draw'))
      .then([
        submitted('creator', 'draw'),
        {
          type: 'ResolutionDisputed',
          data: { creatorResolution: 'draw', opponentResolution: 'opponent_won' },
        },
      ]);
  });
  it('repeating one’s own answer changes nothing', () => {
    disputed().when(resolve(OPPONENT, 'opponent_won')).thenNothing();
  });
});

describe('completed', () => {
  const given = () =>
    spec.given([
      proposed(),
      accepted,
      submitted('creator', 'draw'),
      submitted('opponent', 'draw'),
      completed('draw'),
    ]);
  const givenOne = () =>
    spec.given([
      proposed({ validationMode: 'one' }),
      accepted,
      submitted('creator', 'creator_won'),
      completed('creator_won'),
    ]);
  it('takes a repeated answer as a retry', () => {
    given().when(resolve(CREATOR, 'draw')).thenNothing();
    givenOne().when(resolve(CREATOR, 'creator_won')).thenNothing();
  });
  it('refuses any other answer', () => {
    given()
      .when(resolve(OPPONENT, 'opponent_won'))
      .thenFails('conflict', /already completed/);
    givenOne()
      .when(resolve(OPPONENT, 'creator_won'))
      .thenFails('conflict', /can no longer be changed/);
  });
  it('takes a repeated accept as done, and refuses decline, delete and resend', () => {
    given().when(accept(OPPONENT)).thenNothing();
    given().when(decline(OPPONENT)).thenFails('conflict');
    given()
      .when(remove(CREATOR))
      .thenFails('conflict', /already completed/);
    given().when(resend(CREATOR)).thenFails('conflict');
  });
  it('is invisible to a stranger', () => {
    given().when(resolve(STRANGER, 'draw')).thenFails('not_found');
  });
});

describe('declined', () => {
  const given = () =>
    spec.given([proposed(), { type: 'BetDeclined', data: { opponentId: OPPONENT } }]);
  it('takes a repeated decline as done, refuses everything else with 409, and nobody joins it', () => {
    given().when(decline(OPPONENT)).thenNothing();
    given()
      .when(accept(OPPONENT))
      .thenFails('conflict', /was declined/);
    given()
      .when(remove(CREATOR))
      .thenFails('conflict', /was declined/);
    given()
      .when(resolve(CREATOR, 'draw'))
      .thenFails('conflict', /was declined/);
    given().when(join(NEWCOMER)).thenNothing();
  });
  it('is invisible to a stranger', () => {
    given().when(accept(STRANGER)).thenFails('not_found');
  });
});

describe('deleted', () => {
  const given = () =>
    spec.given([proposed(), { type: 'BetDeleted', data: { deletedBy: CREATOR } }]);
  it('is gone for everyone', () => {
    for (const command of [
      accept(OPPONENT),
      decline(OPPONENT),
      remove(OPPONENT),
      resend(CREATOR),
      resolve(CREATOR, 'draw'),
    ]) {
      given()
        .when(command)
        .thenFails('not_found', /Bet not found/);
    }
  });
  it('is deleted again, with nothing new, by the same deletion sent twice', () => {
    given().when(remove(CREATOR)).thenNothing();
  });
  it('is not recreated by a retried proposal', () => {
    given().when(proposeCommand()).thenNothing();
  });
});
