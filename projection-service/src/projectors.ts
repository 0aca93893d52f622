import type { Projector } from '@wagers/platform/projections/projector';
import { auditProjector } from './audit/audit.projector.ts';
import { betsProjector } from './bets/bets.projector.ts';
import { friendsProjector } from './friends/friends.projector.ts';
import { invitesProjector } from './invites/invites.projector.ts';
import { usersProjector } from './users/users.projector.ts';
import { settleUpProjector } from './settle-up/settle-up.projector.ts';
import { headToHeadProjector } from './head-to-head/head-to-head.projector.ts';
import { activityProjector } from './activity/activity.projector.ts';
import { betTermsProjector } from './bet-terms/bet-terms.projector.ts';
import { notificationPreferencesProjector } from './notification-preferences/notification-preferences.projector.ts';
import { eraseInvitedAddress, withAddressErasure } from './erasure.ts';

/** Every projector this service runs. */
export const allProjectors: Projector[] = [
  usersProjector,
  friendsProjector,
  withAddressErasure(invitesProjector, eraseInvitedAddress.invites),
  withAddressErasure(betsProjector, eraseInvitedAddress.bets),
  auditProjector,
  settleUpProjector,
  headToHeadProjector,
  withAddressErasure(activityProjector, eraseInvitedAddress.activity),
  betTermsProjector,
  notificationPreferencesProjector,
];
