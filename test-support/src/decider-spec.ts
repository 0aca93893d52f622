import { expect } from 'vitest';
import type { DomainEvent } from '@wagers/contracts/events/envelope';

/** A decider as the spec uses one (the platform's Decider fits it). */
interface SpecDecider<State, Command, Event> {
  initialState: () => State;
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
}

/** A refusal as deciders throw them: an Error with a machine-readable code. */
type Refusal = Error & { code: string };
const isRefusal = (error: unknown): error is Refusal =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'string';

/**
 * given(past events).when(command).then(new events) for a decider:
 *   spec(betDecider).given([proposed]).when(accept).then([accepted])
 *   spec(betDecider).given([proposed]).when(accept).thenFails('forbidden')
 */
export function deciderSpec<State, Command, Event extends DomainEvent>(
  decider: SpecDecider<State, Command, Event>,
) {
  return {
    given(events: Event[]) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        when(command: Command) {
          const run = () => decider.decide(command, state);
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenNothing() {
              expect(run()).toEqual([]);
            },
            thenFails(code: string, message?: string | RegExp) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(isRefusal(caught), 'the command should have been refused').toBe(true);
              const refusal = caught as Refusal;
              expect(refusal.code).toBe(code);
              if (message !== undefined) expect(refusal.message).toMatch(message);
            },
          };
        },
      };
    },
  };
}
