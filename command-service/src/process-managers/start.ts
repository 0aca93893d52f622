import type { RunningProjector } from '@wagers/platform/projections/runner';
import { BET_INVITATIONS_TRIGGERS, betInvitations } from './bet-invitations.ts';
import { INVITE_ACCEPTANCE_TRIGGERS, inviteAcceptance } from './invite-acceptance.ts';
import { startProcessManager, type ProcessManagerDeps } from './process-manager.ts';
import { USER_REGISTRATION_TRIGGERS, userRegistration } from './user-registration.ts';
import { ACCOUNT_ERASURE_TRIGGERS, accountErasure } from '../users/erase-account.ts';
import {
  BETS_OF_DELETED_ACCOUNTS_TRIGGERS,
  betsOfDeletedAccounts,
} from './bets-of-deleted-accounts.ts';

/**
 * Every event type some process manager reacts to. A command that appends none of them sets
 * nothing off, so the session's later commands and reads need not wait for the managers.
 */
export const REACTION_TRIGGERS: ReadonlySet<string> = new Set([
  ...USER_REGISTRATION_TRIGGERS,
  ...BET_INVITATIONS_TRIGGERS,
  ...INVITE_ACCEPTANCE_TRIGGERS,
  ...ACCOUNT_ERASURE_TRIGGERS,
  ...BETS_OF_DELETED_ACCOUNTS_TRIGGERS,
]);

/** Every process manager; the list must match PROCESS_MANAGERS, which reads wait for. */
export function processManagers(deps: Pick<ProcessManagerDeps, 'store' | 'pool' | 'avatars'>) {
  return [
    userRegistration(deps.store),
    betInvitations(deps.store),
    inviteAcceptance(deps.store),
    accountErasure(deps.store, deps.pool, deps.avatars),
    betsOfDeletedAccounts(deps.store, deps.pool),
  ];
}

/** Starts every process manager. */
export function startProcessManagers(deps: ProcessManagerDeps): RunningProjector[] {
  const managers = processManagers(deps);
  for (const manager of managers) {
    const missing = [...manager.reactsTo].filter((type) => !REACTION_TRIGGERS.has(type));
    if (missing.length > 0) {
      throw new Error(
        `${manager.name} reacts to ${missing.join(', ')}: add them to REACTION_TRIGGERS`,
      );
    }
  }
  return managers.map((manager) => startProcessManager(manager, deps));
}
