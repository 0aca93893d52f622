import { describe, expect, it } from 'vitest';
import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import {
  accepted,
  completed,
  CREATOR,
  NOW,
  OPPONENT,
  proposed,
  proposedToNewcomer,
} from './bet-fixtures.ts';
import {
  deadlinesEverPlanned,
  deadlinesOf,
  deadlineVerdict,
  evolveDeadlines,
  initialDeadlineState,
  type Deadline,
  type DeadlineState,
} from './deadlines.ts';

const report = (
  party: 'creator' | 'opponent',
  resolution: 'creator_won' | 'opponent_won' | 'draw',
  submittedAt: string,
): BetStreamEvent => ({
  type: 'ResolutionSubmitted',
  data: { party, userId: party === 'creator' ? CREATOR : OPPONENT, resolution, submittedAt },
});

const fold = (events: BetStreamEvent[]): DeadlineState[] => {
  const states: DeadlineState[] = [];
  let state = initialDeadlineState();
  for (const event of events) {
    state = evolveDeadlines(state, event, NOW);
    states.push(state);
  }
  return states;
};

/** given(the bet's events).thenDeadlines(what it has ahead of it). */
const given = (events: BetStreamEvent[]) => {
  const state = fold(events).at(-1) ?? initialDeadlineState();
  return {
    thenDeadlines: (expected: Deadline[]) => expect(deadlinesOf(state)).toEqual(expected),
    state,
  };
};

const remind = (
  recipientId: string,
  reason: 'end_date' | 'no_answer_2d' | 'no_answer_7d',
  dueAt: string,
): Deadline => ({
  kind: 'reminder',
  id: `${reason.replaceAll('_', '-')}-${recipientId}`,
  recipientId,
  reason,
  dueAt,
});
const REPORTED = '2030-06-20T09:30:00.000Z';

describe('on the end date', () => {
  it('both sides of an active bet are reminded at noon UTC', () => {
    given([proposed({ endDate: '2030-06-20' }), accepted]).thenDeadlines([
      remind(CREATOR, 'end_date', '2030-06-20T12:00:00.000Z'),
      remind(OPPONENT, 'end_date', '2030-06-20T12:00:00.000Z'),
    ]);
  });
  it('a side that has reported is not reminded', () => {
    given([
      proposed({ endDate: '2030-06-20' }),
      accepted,
      report('creator', 'creator_won', '2030-06-19T08:00:00.000Z'),
    ]).thenDeadlines([
      remind(OPPONENT, 'end_date', '2030-06-20T12:00:00.000Z'),
      remind(OPPONENT, 'no_answer_2d', '2030-06-21T08:00:00.000Z'),
      remind(OPPONENT, 'no_answer_7d', '2030-06-26T08:00:00.000Z'),
    ]);
  });
  it('a bet without an end date, or not yet accepted, has no end-date reminder', () => {
    given([proposed(), accepted]).thenDeadlines([]);
    given([proposed({ endDate: '2030-06-20' })]).thenDeadlines([]);
    given([proposedToNewcomer({ endDate: '2030-06-20' })]).thenDeadlines([]);
  });
});

describe('when one side has reported and the other has not answered', () => {
  it('the other is reminded 48 hours later and again after 7 days', () => {
    given([proposed(), accepted, report('opponent', 'opponent_won', REPORTED)]).thenDeadlines([
      remind(CREATOR, 'no_answer_2d', '2030-06-22T09:30:00.000Z'),
      remind(CREATOR, 'no_answer_7d', '2030-06-27T09:30:00.000Z'),
    ]);
  });
  it('counts from the first report, even if the reporter changes it', () => {
    given([
      proposed(),
      accepted,
      report('opponent', 'opponent_won', REPORTED),
      report('opponent', 'draw', '2030-06-21T10:00:00.000Z'),
    ]).thenDeadlines([
      remind(CREATOR, 'no_answer_2d', '2030-06-22T09:30:00.000Z'),
      remind(CREATOR, 'no_answer_7d', '2030-06-27T09:30:00.000Z'),
    ]);
  });
  it('an answer ends the reminders, whether the reports match or not', () => {
    given([
      proposed(),
      accepted,
      report('opponent', 'opponent_won', REPORTED),
      report('creator', 'creator_won', '2030-06-21T10:00:00.000Z'),
      {
        type: 'ResolutionDisputed',
        data: { creatorResolution: 'creator_won', opponentResolution: 'opponent_won' },
      },
    ]).thenDeadlines([]);
  });
  it('a completed bet has no deadlines left', () => {
    given([
      proposed({ endDate: '2030-06-20' }),
      accepted,
      report('opponent', 'opponent_won', REPORTED),
      report('creator', 'opponent_won', REPORTED),
      completed('opponent_won'),
    ]).thenDeadlines([]);
  });
  it('a report without its own time counts from when it was recorded', () => {
    given([
      proposed(),
      accepted,
      {
        type: 'ResolutionSubmitted',
        data: { party: 'creator', userId: CREATOR, resolution: 'draw' },
      },
    ]).thenDeadlines([
      remind(OPPONENT, 'no_answer_2d', '2030-06-17T12:00:00.000Z'),
      remind(OPPONENT, 'no_answer_7d', '2030-06-22T12:00:00.000Z'),
    ]);
  });
});

describe('the creator’s report stands', () => {
  const stands = '2030-06-27T09:30:00.000Z';
  const standing: Deadline = {
    kind: 'standing-report',
    id: `stands-${Date.parse(stands)}`,
    dueAt: stands,
  };

  it('7 days after the creator’s report, in place of the second reminder', () => {
    given([
      proposed({ reportStands: true }),
      accepted,
      report('creator', 'creator_won', REPORTED),
    ]).thenDeadlines([remind(OPPONENT, 'no_answer_2d', '2030-06-22T09:30:00.000Z'), standing]);
  });
  it('counts from the creator’s latest report', () => {
    const later = '2030-06-23T09:30:00.000Z';
    const { state } = given([
      proposed({ reportStands: true }),
      accepted,
      report('creator', 'creator_won', REPORTED),
      report('creator', 'draw', later),
    ]);
    expect(deadlinesOf(state).find((d) => d.kind === 'standing-report')?.dueAt).toBe(
      '2030-06-30T09:30:00.000Z',
    );
  });
  it('not when the opponent reported first, nor once the opponent answered', () => {
    given([
      proposed({ reportStands: true }),
      accepted,
      report('opponent', 'opponent_won', REPORTED),
    ]).thenDeadlines([
      remind(CREATOR, 'no_answer_2d', '2030-06-22T09:30:00.000Z'),
      remind(CREATOR, 'no_answer_7d', '2030-06-27T09:30:00.000Z'),
    ]);
    given([
      proposed({ reportStands: true }),
      accepted,
      report('creator', 'creator_won', REPORTED),
      report('opponent', 'opponent_won', '2030-06-24T09:30:00.000Z'),
    ]).thenDeadlines([]);
  });
});

describe('a deadline when its job runs', () => {
  const events = [proposed({ endDate: '2030-06-20' }), accepted];
  const { state } = given(events);
  const id = `end-date-${OPPONENT}`;

  it('acts once its time has come, waits before', () => {
    expect(deadlineVerdict(state, id, new Date('2030-06-20T12:00:00Z'))).toEqual({
      act: remind(OPPONENT, 'end_date', '2030-06-20T12:00:00.000Z'),
    });
    expect(deadlineVerdict(state, id, new Date('2030-06-20T11:59:00Z'))).toEqual({
      waitUntil: '2030-06-20T12:00:00.000Z',
    });
  });
  it('does nothing once the bet no longer has it', () => {
    const after = given([...events, report('opponent', 'draw', REPORTED)]).state;
    expect(deadlineVerdict(after, id, new Date('2030-06-21T00:00:00Z'))).toEqual({
      nothing: true,
    });
  });
  it('those the bet ever had, less those it has now, are the ones to cancel', () => {
    const history = fold([...events, report('creator', 'draw', REPORTED), completed('draw')]);
    expect([...deadlinesEverPlanned(history).keys()].sort()).toEqual(
      [
        `end-date-${CREATOR}`,
        `end-date-${OPPONENT}`,
        `no-answer-2d-${OPPONENT}`,
        `no-answer-7d-${OPPONENT}`,
      ].sort(),
    );
    expect(deadlinesOf(history.at(-1)!)).toEqual([]);
  });
});
