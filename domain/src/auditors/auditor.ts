import {
  auditorEventSchemas,
  auditorStream,
  type AuditorEvent,
} from '@wagers/contracts/events/auditor';
import { defineAggregate, load } from '@wagers/platform/aggregate';
import { schemaReader, type Decider } from '@wagers/platform/decider';
import type { EventStore } from '@wagers/platform/event-store/port';

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

/**
 * Whether the user holds the auditor role now, from the role's own stream (a grant and a revoke
 * or two): every audit call asks this, never a read model, so a revocation holds from the next
 * call on however far behind the audit projector is (docs/decisions/0012-auditors.md).
 */
export async function holdsAuditorRole(store: EventStore, userId: string): Promise<boolean> {
  return (await load(store, auditorAggregate, userId)).isAuditor;
}
