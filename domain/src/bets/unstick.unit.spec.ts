import { describe, it } from 'vitest';
import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import { deciderSpec } from '@wagers/test-support/decider-spec';
import {
  accepted,
  completed,
  CREATOR,
  OPPONENT,
  proposeCommand,
  proposed,
  STRANGER,
  submitted,
} from './bet-fixtures.ts';
import type { BetCommand } from './commands.ts';
import { betDecider } from './decide.ts';

const spec = deciderSpec(betDecider);
const offer = (actorId: string): BetCommand => ({ type: 'OfferDraw', data: { actorId } });
const acceptDraw = (actorId: string): BetCommand => ({ type: 'AcceptDraw', data: { actorId } });
const standing = (now: string): BetCommand => ({ type: 'ApplyStandingReport', data: { now } });
const offered = (userId: string): BetStreamEvent => ({ type: 'DrawOffered', data: { userId } });

const disagreement: BetStreamEvent[] = [
  proposed(),
  accepted,
  submitted('creator', 'creator_won'),
  submitted('opponent', 'opponent_won'),
  {
    type: 'ResolutionDisputed',
    data: { creatorResolution: 'creator_won', opponentResolution: 'opponent_won' },
  },
];

describe('proposing with "my report stands"', () => {
  it('records the option on a bet both must confirm', () => {
    spec
      .given([])
      .when(proposeCommand({ reportStands: true }))
      .then([proposed({ reportStands: true })]);
  });
  it('drops it in mode one, where the first report decides anyway', () => {
    spec
      .given([])
      .when(proposeCommand({ reportStands: true, validationMode: 'one' }))
      .then([proposed({ validationMode: 'one' })]);
  });
});

describe('a draw offer in a disagreement', () => {
  it('either side offers; the other accepts and the bet completes as a draw', () => {
    spec
      .given(disagreement)
      .when(offer(OPPONENT))
      .then([offered(OPPONENT)]);
    spec
      .given([...disagreement, offered(OPPONENT)])
      .when(acceptDraw(CREATOR))
      .then([{ type: 'DrawAccepted', data: { userId: CREATOR } }, completed('draw')]);
  });
  it('offering twice is a retry; accepting one’s own offer is refused', () => {
    spec
      .given([...disagreement, offered(CREATOR)])
      .when(offer(CREATOR))
      .thenNothing();
    spec
      .given([...disagreement, offered(CREATOR)])
      .when(acceptDraw(CREATOR))
      .thenFails('conflict', /No draw has been offered to you/);
  });
  it('the second side offering is told to accept instead', () => {
    spec
      .given([...disagreement, offered(CREATOR)])
      .when(offer(OPPONENT))
      .thenFails('conflict', /accept it instead/);
  });
  it('a new report withdraws the offer', () => {
    spec
      .given([...disagreement, offered(CREATOR), submitted('creator', 'draw')])
      .when(acceptDraw(OPPONENT))
      .thenFails('conflict', /No draw/);
  });
  it('a second acceptance changes nothing', () => {
    spec
      .given([
        ...disagreement,
        offered(OPPONENT),
        { type: 'DrawAccepted', data: { userId: CREATOR } },
        completed('draw'),
      ])
      .when(acceptDraw(CREATOR))
      .thenNothing();
  });
  it('is only for a disagreement, and only for the two', () => {
    spec
      .given([proposed(), accepted, submitted('creator', 'creator_won')])
      .when(offer(CREATOR))
      .thenFails('conflict', /only be offered while your reports disagree/);
    spec
      .given(disagreement)
      .when(acceptDraw(OPPONENT))
      .thenFails('conflict', /No draw/);
    spec.given(disagreement).when(offer(STRANGER)).thenFails('not_found');
  });
});

describe('a standing report', () => {
  const reportedAt = '2030-06-01T10:00:00.000Z';
  const reported: BetStreamEvent[] = [
    proposed({ reportStands: true }),
    accepted,
    {
      type: 'ResolutionSubmitted',
      data: {
        party: 'creator',
        userId: CREATOR,
        resolution: 'creator_won',
        submittedAt: reportedAt,
      },
    },
  ];
  it('stands 7 days after the creator’s report when the friend has not answered', () => {
    spec
      .given(reported)
      .when(standing('2030-06-08T10:00:00.000Z'))
      .then([
        { type: 'ReportStood', data: { resolution: 'creator_won', reportedAt, days: 7 } },
        completed('creator_won'),
      ]);
  });
  it('is refused before the 7 days are up', () => {
    spec
      .given(reported)
      .when(standing('2030-06-08T09:59:59.999Z'))
      .thenFails('conflict', /stands only from 2030-06-08T10:00:00.000Z/);
  });
  it('does nothing once the friend answered, the bet completed, or without the option', () => {
    const later = standing('2030-07-01T00:00:00.000Z');
    spec
      .given([...reported, submitted('opponent', 'opponent_won')])
      .when(later)
      .thenNothing();
    spec
      .given([...reported, submitted('opponent', 'creator_won'), completed('creator_won')])
      .when(later)
      .thenNothing();
    spec
      .given([proposed(), ...reported.slice(1)])
      .when(later)
      .thenNothing();
    spec.given([]).when(later).thenNothing();
  });
  it('counts from the creator’s latest report', () => {
    spec
      .given([
        ...reported,
        {
          type: 'ResolutionSubmitted',
          data: {
            party: 'creator',
            userId: CREATOR,
            resolution: 'draw',
            submittedAt: '2030-06-05T10:00:00.000Z',
          },
        },
      ])
      .when(standing('2030-06-08T10:00:00.000Z'))
      .thenFails('conflict', /2030-06-12T10:00:00.000Z/);
  });
});
