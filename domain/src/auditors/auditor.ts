import {
  auditorEventSchemas,
  auditorStream,
  type AuditorEvent,
} from '@wagers/contracts/events/auditor';
import { defineAggregate } from '@wagers/platform/aggregate';
import { schemaReader, type Decider } from '@wagers/platform/decider';

export type AuditorState = { isAuditor: boolean };

/** Granted and revoked by an operator; granting twice or revoking what was never granted changes nothing. */
export type AuditorCommand =
  | { type: 'GrantAuditorRole'; data: { userId: string } }
  | { type: 'RevokeAuditorRole'; data: { userId: string } };

export function decide(command: AuditorCommand, state: AuditorState): AuditorEvent[] {
  switch (command.type) {
    case 'GrantAuditorRole':
      return state.isAuditor ? [] : [{ type: 'AuditorRoleGranted', data: command.data }];
    case 'RevokeAuditorRole':
      return state.isAuditor ? [{ type: 'AuditorRoleRevoked', data: command.data }] : [];
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export function evolve(_state: AuditorState, event: AuditorEvent): AuditorState {
  switch (event.type) {
    case 'AuditorRoleGranted':
      return { isAuditor: true };
    case 'AuditorRoleRevoked':
      return { isAuditor: false };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

export const auditorDecider: Decider<AuditorState, AuditorCommand, AuditorEvent> = {
  initialState: () => ({ isAuditor: false }),
  decide,
  evolve,
};

/** auditor-{userId}. */
export const auditorAggregate = defineAggregate({
  stream: auditorStream,
  decider: auditorDecider,
  read: schemaReader<AuditorEvent>(auditorEventSchemas),
});
