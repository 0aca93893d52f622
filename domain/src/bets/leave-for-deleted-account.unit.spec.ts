import { describe, it } from 'vitest';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import {
  accepted,
  completed,
  CREATOR,
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
const leave = (actorId: string): BetCommand => ({
  type: 'LeaveForDeletedAccount',
  data: { actorId },
});

describe('a participant deletes their account', () => {
  it('a pending bet they proposed is deleted', () => {
    spec
      .given([proposed()])
      .when(leave(CREATOR))
      .then([{ type: 'BetDeleted', data: { deletedBy: CREATOR, reason: 'account_deleted' } }]);
    spec
      .given([proposedToNewcomer()])
      .when(leave(CREATOR))
      .then([{ type: 'BetDeleted', data: { deletedBy: CREATOR, reason: 'account_deleted' } }]);
  });

  it('a pending bet proposed to them is declined', () =>
    spec
      .given([proposed()])
      .when(leave(OPPONENT))
      .then([{ type: 'BetDeclined', data: { opponentId: OPPONENT, reason: 'account_deleted' } }]));

  it('a bet past pending keeps going, and an ended one changes nothing', () => {
    spec.given([proposed(), accepted]).when(leave(OPPONENT)).thenNothing();
    spec
      .given([proposed(), accepted, submitted('creator', 'creator_won')])
      .when(leave(CREATOR))
      .thenNothing();
    spec
      .given([proposed(), accepted, completed('creator_won')])
      .when(leave(OPPONENT))
      .thenNothing();
    spec
      .given([proposed(), { type: 'BetDeclined', data: { opponentId: OPPONENT } }])
      .when(leave(OPPONENT))
      .thenNothing();
  });

  it('is refused for someone who is not a side of the bet', () =>
    spec.given([proposed()]).when(leave(STRANGER)).thenFails('not_found'));

  it('nobody proposes a bet to them any more, friends before or not', () =>
    spec
      .given([])
      .when(proposeCommand({ opponentDeleted: true }))
      .thenFails('conflict', 'This person has deleted their account'));
});
