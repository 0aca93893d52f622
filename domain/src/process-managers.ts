/**
 * The process managers: each follows the log from its own checkpoint and turns one aggregate's
 * event into commands on others. Reads wait for them as well as for the projectors, so a person
 * sees what their command set off on their very next read.
 */
export const PROCESS_MANAGERS = [
  'pm-user-registration',
  'pm-bet-invitations',
  'pm-invite-acceptance',
  'pm-account-erasure',
  'pm-bets-of-deleted-accounts',
] as const;
export type ProcessManagerName = (typeof PROCESS_MANAGERS)[number];
