import { expect } from 'vitest';
import type { DomainEvent } from '@wagers/contracts/events/envelope';
import type { Decider } from '../decider.ts';
import { DomainError } from '../errors.ts';

/**
 * given(past events).when(command).then(new events) for a decider:
 *   spec(betDecider).given([proposed]).when(accept).then([accepted])
 *   spec(betDecider).given([proposed]).when(accept).thenFails('forbidden')
 */
export function deciderSpec<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
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
            thenFails(code: DomainError['code'], message?: string | RegExp) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught, 'the command should have been refused').toBeInstanceOf(DomainError);
              const domainError = caught as DomainError;
              expect(domainError.code).toBe(code);
              if (message !== undefined) expect(domainError.message).toMatch(message);
            },
          };
        },
      };
    },
  };
}
