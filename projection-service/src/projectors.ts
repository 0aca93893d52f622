import type { Projector } from '@wagers/platform/projections/projector';
import { auditProjector } from './audit/audit.projector.ts';
import { betsProjector } from './bets/bets.projector.ts';
import { friendsProjector } from './friends/friends.projector.ts';
import { invitesProjector } from './invites/invites.projector.ts';
import { usersProjector } from './users/users.projector.ts';

/** Every projector this service runs. */
export const allProjectors: Projector[] = [
  usersProjector,
  friendsProjector,
  invitesProjector,
  betsProjector,
  auditProjector,
];
