import type { ReminderReason } from '@wagers/contracts/events/reminders';
import type { BetStreamEvent } from '@wagers/contracts/events/bet';
import { evolve, initialBetState, type BetState } from './bet.ts';
import { standsAt } from './unstick.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** After one side's report, the other is reminded this long after it, then again. */
export const FIRST_ANSWER_REMINDER_MS = 48 * HOUR_MS;
export const SECOND_ANSWER_REMINDER_MS = 7 * DAY_MS;

/**
 * The time of day (UTC) an end-date reminder goes out. Noon UTC falls on the same calendar date
 * from UTC-12 to UTC+11, so "on the end date" holds for nearly everyone, whatever their zone.
 */
const END_DATE_REMINDER_TIME = 'T12:00:00.000Z';

/** What a bet's deadlines depend on: the bet as its rules see it, its end date, its first reports. */
export interface DeadlineState {
  bet: BetState;
  /** YYYY-MM-DD or null. */
  endDate: string | null;
  title: string;
  /** When each side first reported (ISO): a report is never withdrawn, so this stays put. */
  firstReportAt: { creator: string | null; opponent: string | null };
}

export const initialDeadlineState = (): DeadlineState => ({
  bet: initialBetState(),
  endDate: null,
  title: '',
  firstReportAt: { creator: null, opponent: null },
});

/** Folds one bet event, with the time it was recorded (for reports that do not carry theirs). */
export function evolveDeadlines(
  state: DeadlineState,
  event: BetStreamEvent,
  occurredAt: string,
): DeadlineState {
  const bet = evolve(state.bet, event);
  if (event.type === 'BetProposed')
    return { ...initialDeadlineState(), bet, endDate: event.data.endDate, title: event.data.title };
  if (event.type === 'ResolutionSubmitted') {
    const { party } = event.data;
    const at = event.data.submittedAt ?? occurredAt;
    const firstReportAt = { ...state.firstReportAt, [party]: state.firstReportAt[party] ?? at };
    // The standing report is the bet's own rule: it counts from the creator's latest report.
    return { ...state, bet, firstReportAt };
  }
  return { ...state, bet };
}

/** A reminder to report, for one person, due at one time; `id` is unique within the bet. */
export interface Reminder {
  kind: 'reminder';
  id: string;
  recipientId: string;
  reason: ReminderReason;
  dueAt: string;
}

/** The creator's report stands at `dueAt` unless the opponent answers first. */
export interface StandingDeadline {
  kind: 'standing-report';
  id: string;
  dueAt: string;
}

export type Deadline = Reminder | StandingDeadline;

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * Every deadline the bet has ahead of it now, whether or not its time has come. A bet that is not
 * active (pending, declined, deleted, completed) has none, so a completion or a deletion cancels
 * them all; a side that has reported is reminded of nothing.
 */
export function deadlinesOf(state: DeadlineState): Deadline[] {
  const { bet } = state;
  if (bet.status !== 'active' && bet.status !== 'awaiting_resolution') return [];
  if (bet.creatorId === null || bet.opponentId === null) return [];
  const sides = [
    { userId: bet.creatorId, reported: bet.creatorResolution !== null },
    { userId: bet.opponentId, reported: bet.opponentResolution !== null },
  ];
  const deadlines: Deadline[] = [];
  if (state.endDate !== null) {
    for (const side of sides.filter((s) => !s.reported)) {
      deadlines.push({
        kind: 'reminder',
        id: `end-date-${side.userId}`,
        recipientId: side.userId,
        reason: 'end_date',
        dueAt: `${state.endDate}${END_DATE_REMINDER_TIME}`,
      });
    }
  }
  const waiting = sides.filter((s) => !s.reported);
  const reportedAt =
    bet.creatorResolution !== null ? state.firstReportAt.creator : state.firstReportAt.opponent;
  if (waiting.length === 1 && reportedAt !== null) {
    const [silent] = waiting as [(typeof waiting)[number]];
    deadlines.push({
      kind: 'reminder',
      id: `no-answer-2d-${silent.userId}`,
      recipientId: silent.userId,
      reason: 'no_answer_2d',
      dueAt: plus(reportedAt, FIRST_ANSWER_REMINDER_MS),
    });
    const stands = standsAt(bet);
    if (stands !== null && silent.userId === bet.opponentId) {
      // The creator's report stands on the day a second reminder would come: the opponent hears
      // that instead (the first reminder says when it will happen).
      deadlines.push({
        kind: 'standing-report',
        id: `stands-${Date.parse(stands)}`,
        dueAt: stands,
      });
    } else {
      deadlines.push({
        kind: 'reminder',
        id: `no-answer-7d-${silent.userId}`,
        recipientId: silent.userId,
        reason: 'no_answer_7d',
        dueAt: plus(reportedAt, SECOND_ANSWER_REMINDER_MS),
      });
    }
  }
  return deadlines;
}

/**
 * What to do about a deadline at `now`: act, wait until its time, or nothing (the bet moved on
 * and no longer has it; a reminder's person reported, the bet completed or was deleted).
 */
export function deadlineVerdict(
  state: DeadlineState,
  deadlineId: string,
  now: Date,
): { act: Deadline } | { waitUntil: string } | { nothing: true } {
  const deadline = deadlinesOf(state).find((d) => d.id === deadlineId);
  if (!deadline) return { nothing: true };
  if (now.getTime() < Date.parse(deadline.dueAt)) return { waitUntil: deadline.dueAt };
  return { act: deadline };
}

/**
 * Every deadline the bet had at any point of its history (given as successive states): those not
 * among today's `deadlinesOf` are the ones to cancel.
 */
export function deadlinesEverPlanned(states: DeadlineState[]): Map<string, Deadline> {
  const all = new Map<string, Deadline>();
  for (const state of states)
    for (const deadline of deadlinesOf(state)) all.set(deadline.id, deadline);
  return all;
}
