import { describe, it } from 'vitest';
import type { BetEvent } from '@wagers/contracts/events/bet';
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
const sideLeft = (party: 'creator' | 'opponent'): BetEvent => ({
  type: 'BetSideLeft',
  data: { party, userId: party === 'creator' ? CREATOR : OPPONENT },
});
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

  it('a bet under way keeps going and records the side that left, once; an ended one changes nothing', () => {
    spec
      .given([proposed(), accepted])
      .when(leave(OPPONENT))
      .then([sideLeft('opponent')]);
    spec
      .given([proposed(), accepted, submitted('creator', 'creator_won')])
      .when(leave(CREATOR))
      .then([sideLeft('creator')]);
    spec
      .given([proposed(), accepted, sideLeft('opponent')])
      .when(leave(OPPONENT))
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

  it('a report the side left made stands at once, even one the deleted side disputed', () => {
    spec
      .given([proposed(), accepted, submitted('creator', 'creator_won')])
      .when(leave(OPPONENT))
      .then([sideLeft('opponent'), completed('creator_won')]);
    spec
      .given([
        proposed({ reportStands: true }),
        accepted,
        submitted('creator', 'creator_won'),
        submitted('opponent', 'opponent_won'),
        {
          type: 'ResolutionDisputed',
          data: { creatorResolution: 'creator_won', opponentResolution: 'opponent_won' },
        },
      ])
      .when(leave(CREATOR))
      .then([sideLeft('creator'), completed('opponent_won')]);
  });

  it('is refused for someone who is not a side of the bet', () =>
    spec.given([proposed()]).when(leave(STRANGER)).thenFails('not_found'));

  it('nobody proposes a bet to them any more, friends before or not', () =>
    spec
      .given([])
      .when(proposeCommand({ opponentDeleted: true }))
      .thenFails('conflict', 'This person has deleted their account'));
});

describe('the other side of a bet under way has deleted their account', () => {
  const report = (
    actorId: string,
    resolution: 'creator_won' | 'opponent_won' | 'draw',
  ): BetCommand => ({ type: 'SubmitResolution', data: { actorId, resolution } });

  it('the report of the side left stands at once, whichever side it is', () => {
    spec
      .given([proposed(), accepted, sideLeft('creator')])
      .when(report(OPPONENT, 'opponent_won'))
      .then([submitted('opponent', 'opponent_won'), completed('opponent_won')]);
    spec
      .given([proposed(), accepted, sideLeft('opponent')])
      .when(report(CREATOR, 'draw'))
      .then([submitted('creator', 'draw'), completed('draw')]);
  });

  it('over a report the deleted side made first, with no dispute', () =>
    spec
      .given([proposed(), accepted, submitted('creator', 'creator_won'), sideLeft('creator')])
      .when(report(OPPONENT, 'opponent_won'))
      .then([submitted('opponent', 'opponent_won'), completed('opponent_won')]));

  it('a report made before, sent again, stands too', () =>
    spec
      .given([proposed(), accepted, submitted('creator', 'creator_won'), sideLeft('opponent')])
      .when(report(CREATOR, 'creator_won'))
      .then([completed('creator_won')]));

  it('once completed, the same report again changes nothing and another is refused', () => {
    const given = [
      proposed(),
      accepted,
      sideLeft('creator'),
      submitted('opponent', 'opponent_won'),
      completed('opponent_won'),
    ];
    spec.given(given).when(report(OPPONENT, 'opponent_won')).thenNothing();
    spec
      .given(given)
      .when(report(OPPONENT, 'draw'))
      .thenFails('conflict', /already completed/);
  });

  it('while the other side has an account, a report still waits for them', () =>
    spec
      .given([proposed(), accepted])
      .when(report(OPPONENT, 'opponent_won'))
      .then([submitted('opponent', 'opponent_won')]));

  it('the side who left is not the one whose report stands', () =>
    spec
      .given([proposed(), accepted, sideLeft('opponent')])
      .when(report(OPPONENT, 'opponent_won'))
      .then([submitted('opponent', 'opponent_won')]));

  it('a stranger is still refused', () =>
    spec
      .given([proposed(), accepted, sideLeft('opponent')])
      .when(report(STRANGER, 'draw'))
      .thenFails('not_found'));
});
