import type { RunningProjector } from '@wagers/platform/projections/runner';
import { betInvitations } from './bet-invitations.ts';
import { inviteAcceptance } from './invite-acceptance.ts';
import { startProcessManager, type ProcessManagerDeps } from './process-manager.ts';
import { userRegistration } from './user-registration.ts';

/** Starts every process manager; the list must match PROCESS_MANAGERS, which reads wait for. */
export function startProcessManagers(deps: ProcessManagerDeps): RunningProjector[] {
  const managers = [
    userRegistration(deps.store),
    betInvitations(deps.store),
    inviteAcceptance(deps.store),
  ];
  return managers.map((manager) => startProcessManager(manager, deps));
}
