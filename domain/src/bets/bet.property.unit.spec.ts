import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolutions } from '@wagers/contracts/api/bets';
import { betStreamEventSchemas, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { DomainError } from '@wagers/platform/errors';
import { evolve, initialBetState, type BetState } from './bet.ts';
import { CODE, CREATOR, NEWCOMER, OPPONENT, proposeCommand, STRANGER } from './bet-fixtures.ts';
import type { BetCommand } from './commands.ts';
import { betDecider } from './decide.ts';

/** Mostly the two parties, sometimes a stranger or a newcomer, so runs get far into the lifecycle. */
const actor = fc.oneof(
  { arbitrary: fc.constantFrom(CREATOR, OPPONENT, NEWCOMER), weight: 6 },
  { arbitrary: fc.constant(STRANGER), weight: 1 },
);
const resolution = fc.constantFrom(...resolutions);

const propose = (creator: fc.Arbitrary<string>): fc.Arbitrary<BetCommand> =>
  fc
    .record({
      opponentId: fc.constantFrom(OPPONENT, null),
      mode: fc.constantFrom('both' as const, 'one' as const),
      creatorId: creator,
    })
    .map(({ opponentId, mode, creatorId }) =>
      proposeCommand({
        creatorId,
        opponentId,
        inviteeEmail: opponentId ? null : 'newcomer@example.com',
        validationMode: mode,
      }),
    );

const command: fc.Arbitrary<BetCommand> = fc.oneof(
  { arbitrary: propose(actor), weight: 1 },
  {
    arbitrary: fc
      .record({ opponentId: actor, inviteCode: fc.constantFrom(CODE, 'other-code') })
      .map((data): BetCommand => ({ type: 'JoinFromInvite', data })),
    weight: 2,
  },
  {
    arbitrary: actor.map((actorId): BetCommand => ({
      type: 'ResendInvite',
      data: { actorId, phoneOptedOut: false },
    })),
    weight: 1,
  },
  {
    arbitrary: actor.map((actorId): BetCommand => ({ type: 'AcceptBet', data: { actorId } })),
    weight: 4,
  },
  {
    arbitrary: actor.map((actorId): BetCommand => ({ type: 'DeclineBet', data: { actorId } })),
    weight: 1,
  },
  {
    arbitrary: actor.map((actorId): BetCommand => ({ type: 'DeleteBet', data: { actorId } })),
    weight: 1,
  },
  {
    arbitrary: fc
      .record({ actorId: actor, resolution })
      .map((data): BetCommand => ({ type: 'SubmitResolution', data })),
    weight: 8,
  },
  {
    arbitrary: fc
      .record({
        actorId: actor,
        type: fc.constantFrom(
          'MarkPaid' as const,
          'ConfirmReceipt' as const,
          'ReportNotReceived' as const,
        ),
      })
      .map(({ actorId, type }): BetCommand => ({ type, data: { actorId } })),
    weight: 3,
  },
  {
    arbitrary: fc
      .record({
        actorId: actor,
        type: fc.constantFrom('OfferDraw' as const, 'AcceptDraw' as const),
      })
      .map(({ actorId, type }): BetCommand => ({ type, data: { actorId } })),
    weight: 3,
  },
);

/** A proposal first (so most runs exercise a real bet), then anything. */
const history = fc.tuple(
  propose(fc.constant(CREATOR)),
  fc.array(command, { minLength: 10, maxLength: 40 }),
);

function winnerFor(state: BetState): string | null {
  if (state.resolution === 'creator_won') return state.creatorId;
  if (state.resolution === 'opponent_won') return state.opponentId;
  return null;
}

/** What no bet may ever look like. */
function assertAllowed(state: BetState): void {
  const participants = [state.creatorId, state.opponentId];
  // Only a completed bet with a winner is ever paid.
  if (state.payment !== 'unpaid') {
    expect(state.status).toBe('completed');
    expect(state.winnerId).not.toBeNull();
  }
  switch (state.status) {
    case 'none':
      return;
    case 'pending':
      expect(state.payment).toBe('unpaid');
      expect(state.creatorResolution ?? state.opponentResolution).toBeNull();
      expect(state.opponentId === null).toBe(state.invitee !== null);
      return;
    case 'active':
      expect(state.opponentId).not.toBeNull();
      expect(state.creatorResolution ?? state.opponentResolution).toBeNull();
      return;
    case 'awaiting_resolution':
      expect(state.validationMode).toBe('both');
      expect(state.opponentId).not.toBeNull();
      expect(state.creatorResolution ?? state.opponentResolution).not.toBeNull();
      expect(
        state.creatorResolution !== null && state.creatorResolution === state.opponentResolution,
      ).toBe(false);
      return;
    case 'completed':
      expect(state.opponentId).not.toBeNull();
      expect(state.winnerId).toBe(winnerFor(state));
      if (state.winnerId !== null) expect(participants).toContain(state.winnerId);
      if (state.settledBy === 'draw') {
        expect(state.resolution).toBe('draw');
        expect(state.creatorResolution).not.toBe(state.opponentResolution);
      } else if (state.validationMode === 'both') {
        expect(state.creatorResolution).toBe(state.resolution);
        expect(state.opponentResolution).toBe(state.resolution);
      } else {
        expect([state.creatorResolution, state.opponentResolution]).toContain(state.resolution);
      }
      return;
    case 'declined':
    case 'deleted':
      expect(state.creatorResolution ?? state.opponentResolution).toBeNull();
      return;
    default: {
      const unknown: never = state.status;
      throw new Error(`unknown status ${String(unknown)}`);
    }
  }
}

/** Who may cause which event. */
function assertAuthorised(
  before: BetState,
  commandRun: BetCommand,
  events: BetStreamEvent[],
): void {
  for (const event of events) {
    expect(() => betStreamEventSchemas[event.type].parse(event.data)).not.toThrow();
    const actorId = 'actorId' in commandRun.data ? commandRun.data.actorId : null;
    switch (event.type) {
      case 'BetAccepted':
      case 'BetDeclined':
        expect(actorId).toBe(before.opponentId);
        expect(before.status).toBe('pending');
        break;
      case 'BetDeleted':
      case 'BetInviteResent':
        expect(actorId).toBe(before.creatorId);
        expect(before.status).toBe('pending');
        break;
      case 'ResolutionSubmitted':
        expect([before.creatorId, before.opponentId]).toContain(actorId);
        expect(['active', 'awaiting_resolution']).toContain(before.status);
        break;
      case 'DrawOffered':
        expect([before.creatorId, before.opponentId]).toContain(actorId);
        expect(before.status).toBe('awaiting_resolution');
        expect(before.creatorResolution).not.toBe(before.opponentResolution);
        break;
      case 'DrawAccepted':
        expect([before.creatorId, before.opponentId]).toContain(actorId);
        expect(before.drawOfferedBy).not.toBeNull();
        expect(before.drawOfferedBy).not.toBe(actorId);
        break;
      case 'ReportStood':
        throw new Error('no report carries its time here, so none can stand');
      case 'BetMarkedPaid':
        expect(before.status).toBe('completed');
        expect(before.winnerId).not.toBeNull();
        expect([before.creatorId, before.opponentId]).toContain(actorId);
        expect(actorId).not.toBe(before.winnerId);
        break;
      case 'BetPaymentConfirmed':
      case 'BetPaymentNotReceived':
        expect(before.status).toBe('completed');
        expect(actorId).toBe(before.winnerId);
        expect(before.payment).toBe('marked_paid');
        break;
      case 'BetInviteAccepted':
        expect(before.status).toBe('pending');
        expect(before.opponentId).toBeNull();
        expect(event.data.opponentId).not.toBe(before.creatorId);
        break;
      default:
        break;
    }
  }
}

const terminal = new Set(['completed', 'declined', 'deleted']);

describe('bet decider, any sequence of commands', () => {
  it('never reaches a state the rules forbid, and only the right people change it', () => {
    fc.assert(
      fc.property(history, ([first, rest]) => {
        let state = betDecider.initialState();
        for (const next of [first, ...rest]) {
          let events: BetStreamEvent[] = [];
          try {
            events = betDecider.decide(next, state);
          } catch (error) {
            // Refusals are typed domain errors (404/403/409/400), never anything else.
            expect(error).toBeInstanceOf(DomainError);
          }
          assertAuthorised(state, next, events);
          const after = events.reduce(evolve, state);
          if (terminal.has(state.status)) expect(after.status).toBe(state.status);
          assertAllowed(after);
          state = after;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a stranger never changes anything', () => {
    fc.assert(
      fc.property(
        history,
        fc.constantFrom('AcceptBet', 'DeclineBet', 'DeleteBet', 'ResendInvite', 'SubmitResolution'),
        ([first, rest], type) => {
          const state = [first, ...rest].reduce((current, next) => {
            try {
              return betDecider.decide(next, current).reduce(evolve, current);
            } catch {
              return current;
            }
          }, initialBetState());
          const strangerCommand = (
            type === 'SubmitResolution'
              ? { type, data: { actorId: STRANGER, resolution: 'draw' } }
              : { type, data: { actorId: STRANGER } }
          ) as BetCommand;
          if (state.creatorId === STRANGER || state.opponentId === STRANGER) return;
          expect(() => betDecider.decide(strangerCommand, state)).toThrow(DomainError);
        },
      ),
      { numRuns: 500 },
    );
  });
});
