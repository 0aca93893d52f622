import type { RunningProjector } from '@wagers/platform/projections/runner';
import { betInvitations } from './bet-invitations.ts';
import { inviteAcceptance } from './invite-acceptance.ts';
import { startProcessManager, type ProcessManagerDeps } from './process-manager.ts';
import { userRegistration } from './user-registration.ts';
import { accountErasure } from '../users/erase-account.ts';

/** Starts every process manager; the list must match PROCESS_MANAGERS, which reads wait for. */
export function startProcessManagers(deps: ProcessManagerDeps): RunningProjector[] {
  const managers = [
    userRegistration(deps.store),
    betInvitations(deps.store),
    inviteAcceptance(deps.store),
    accountErasure(deps.store, deps.pool),
  ];
  return managers.map((manager) => startProcessManager(manager, deps));
}
