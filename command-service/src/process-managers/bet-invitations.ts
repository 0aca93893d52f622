import { betEventSchemas } from '@wagers/contracts/events/bet';
import { displayName } from '@wagers/contracts/api/user';
import { betAggregate } from '@wagers/domain/bets/decide';
import { inviteAggregate } from '@wagers/domain/invites/invite';
import { isOptedOut } from '@wagers/domain/invites/sms-opt-out';
import { userAggregate } from '@wagers/domain/users/user';
import { handle, load } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { ProcessManager } from './process-manager.ts';

/** The event types this manager reacts to. */
export const BET_INVITATIONS_TRIGGERS: ReadonlySet<string> = new Set([
  'BetInviteAttached',
  'BetInviteResent',
]);

/**
 * A bet proposed to a newcomer carries its invite code; this sends the invite under that code
 * (a no-op once it exists), and sends it again for each resend the bet records (a no-op once
 * that resend is on the invite). Nothing is sent for a bet no longer pending when the manager
 * gets to it (deleted, declined or joined meanwhile).
 */
export function betInvitations(store: EventStore): ProcessManager {
  return {
    name: 'pm-bet-invitations',
    reactsTo: BET_INVITATIONS_TRIGGERS,
    async react(event, context) {
      const betId = event.streamId.slice('bet-'.length);
      // The manager may be behind: a bet deleted, declined or joined meanwhile sends no invite.
      const bet = await load(store, betAggregate, betId);
      if (bet.status !== 'pending') return null;
      if (event.type === 'BetInviteResent') {
        const { inviteCode, sequence } = betEventSchemas.BetInviteResent.parse(event.data);
        const invite = await load(store, inviteAggregate, inviteCode);
        const phone = invite.status === 'none' ? null : invite.inviteePhone;
        const resent = await handle(
          store,
          inviteAggregate,
          inviteCode,
          {
            type: 'ResendInvite',
            data: {
              actorId: null,
              phoneOptedOut: await isOptedOut(store, phone),
              ...(sequence !== undefined ? { sequence } : {}),
            },
          },
          context,
        );
        return resent.position;
      }
      const { inviteCode, signedLink } = betEventSchemas.BetInviteAttached.parse(event.data);
      if (!bet.invitee || !bet.creatorId) return null;
      const creator = await load(store, userAggregate, bet.creatorId);
      if (creator.status !== 'registered' || creator.email === null) return null;
      const sent = await handle(
        store,
        inviteAggregate,
        inviteCode,
        {
          type: 'SendInvite',
          data: {
            code: inviteCode,
            inviterId: creator.userId,
            inviterName: displayName(creator),
            inviterEmail: creator.email,
            // The proposal already refused the creator's own number.
            inviterPhone: null,
            inviteeEmail: bet.invitee.email,
            inviteePhone: bet.invitee.phone,
            phoneOptedOut: await isOptedOut(store, bet.invitee.phone),
            betId,
            message: null,
            at: event.metadata.occurredAt,
            requestHash: null,
            // The creator was handed the link the bet's proposal made: signed or, before links
            // were signed, the code alone.
            signedLink: signedLink === true,
          },
        },
        context,
      );
      return sent.position;
    },
  };
}
