import { describe, it } from 'vitest';
import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import {
  accepted,
  completed,
  CREATOR,
  OPPONENT,
  proposed,
  STRANGER,
  submitted,
} from './bet-fixtures.ts';
import type { BetCommand } from './commands.ts';
import { betDecider } from './decide.ts';

const spec = deciderSpec(betDecider);
const markPaid = (actorId: string): BetCommand => ({ type: 'MarkPaid', data: { actorId } });
const confirm = (actorId: string): BetCommand => ({ type: 'ConfirmReceipt', data: { actorId } });
const notReceived = (actorId: string): BetCommand => ({
  type: 'ReportNotReceived',
  data: { actorId },
});
const markedPaid: BetStreamEvent = { type: 'BetMarkedPaid', data: { userId: OPPONENT } };
const confirmed: BetStreamEvent = { type: 'BetPaymentConfirmed', data: { userId: CREATOR } };
const notArrived: BetStreamEvent = { type: 'BetPaymentNotReceived', data: { userId: CREATOR } };

/** Alice (creator) won 12.50 from Bob (opponent). */
const creatorWon: BetStreamEvent[] = [
  proposed(),
  accepted,
  submitted('creator', 'creator_won'),
  submitted('opponent', 'creator_won'),
  completed('creator_won'),
];

describe('a completed money bet, unpaid', () => {
  it('the loser marks it paid', () => {
    spec.given(creatorWon).when(markPaid(OPPONENT)).then([markedPaid]);
  });
  it('the winner cannot mark it paid', () => {
    spec.given(creatorWon).when(markPaid(CREATOR)).thenFails('forbidden', /loser/);
  });
  it('the winner cannot confirm a payment nobody made', () => {
    spec
      .given(creatorWon)
      .when(confirm(CREATOR))
      .thenFails('conflict', /not marked/);
  });
  it('the winner cannot say a payment nobody made did not arrive', () => {
    spec
      .given(creatorWon)
      .when(notReceived(CREATOR))
      .thenFails('conflict', /not marked this bet paid/);
  });
  it('is invisible to a stranger', () => {
    spec.given(creatorWon).when(markPaid(STRANGER)).thenFails('not_found');
  });
  it('works the same when the opponent won', () => {
    spec
      .given([
        proposed({ validationMode: 'one' }),
        accepted,
        submitted('creator', 'opponent_won'),
        completed('opponent_won'),
      ])
      .when(markPaid(CREATOR))
      .then([{ type: 'BetMarkedPaid', data: { userId: CREATOR } }]);
  });
});

describe('marked paid', () => {
  const given = [...creatorWon, markedPaid];
  it('the winner confirms receipt', () => {
    spec.given(given).when(confirm(CREATOR)).then([confirmed]);
  });
  it('the winner says it did not arrive', () => {
    spec.given(given).when(notReceived(CREATOR)).then([notArrived]);
  });
  it('marking it paid again is a retry', () => {
    spec.given(given).when(markPaid(OPPONENT)).thenNothing();
  });
  it('only the winner confirms', () => {
    spec
      .given(given)
      .when(confirm(OPPONENT))
      .thenFails('forbidden', /winner/);
  });
  it('only the winner says it did not arrive', () => {
    spec
      .given(given)
      .when(notReceived(OPPONENT))
      .thenFails('forbidden', /winner/);
  });
});

describe('reported not received', () => {
  it('is owed again: the loser marks it paid anew', () => {
    spec
      .given([...creatorWon, markedPaid, notArrived])
      .when(markPaid(OPPONENT))
      .then([markedPaid]);
  });
  it('reported again before the loser marks it paid anew, changes nothing (a retry)', () => {
    spec
      .given([...creatorWon, markedPaid, notArrived])
      .when(notReceived(CREATOR))
      .thenNothing();
  });
  it('marked paid anew, can be reported missing again', () => {
    spec
      .given([...creatorWon, markedPaid, notArrived, markedPaid])
      .when(notReceived(CREATOR))
      .then([notArrived]);
  });
});

describe('confirmed', () => {
  const given = [...creatorWon, markedPaid, confirmed];
  it('a second confirmation is a retry', () => {
    spec.given(given).when(confirm(CREATOR)).thenNothing();
  });
  it('is settled for good', () => {
    spec
      .given(given)
      .when(markPaid(OPPONENT))
      .thenFails('conflict', /already settled/);
    spec
      .given(given)
      .when(notReceived(CREATOR))
      .thenFails('conflict', /already confirmed/);
  });
});

describe('bets with nothing to pay', () => {
  it('refuses a bet that is not completed', () => {
    spec
      .given([proposed(), accepted])
      .when(markPaid(OPPONENT))
      .thenFails('conflict', /Only a completed bet/);
  });
  it('refuses a custom wager', () => {
    spec
      .given([
        proposed({ wagerType: 'custom', wagerAmountCents: null, wagerDescription: 'Dinner' }),
        accepted,
        submitted('creator', 'creator_won'),
        submitted('opponent', 'creator_won'),
        completed('creator_won'),
      ])
      .when(markPaid(OPPONENT))
      .thenFails('conflict', /no money/);
  });
  it('refuses a zero amount', () => {
    spec
      .given([proposed({ wagerAmountCents: 0 }), ...creatorWon.slice(1)])
      .when(markPaid(OPPONENT))
      .thenFails('conflict', /no money/);
  });
  it('refuses a draw', () => {
    spec
      .given([
        proposed(),
        accepted,
        submitted('creator', 'draw'),
        submitted('opponent', 'draw'),
        completed('draw'),
      ])
      .when(markPaid(OPPONENT))
      .thenFails('conflict', /draw/);
  });
});
