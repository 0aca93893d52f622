import type { NotificationKind } from '@wagers/contracts/api/notifications';
import { betEventSchemas } from '@wagers/contracts/events/bet';
import { friendshipEventSchemas } from '@wagers/contracts/events/friendship';
import { inviteEventSchemas } from '@wagers/contracts/events/invite';
import type { RecordedEvent } from '@wagers/platform/event-store/port';

export interface Notice {
  recipientId: string;
  kind: NotificationKind;
  betId: string | null;
}

/**
 * The two sides of a bet and what the notices need of it, folded from its stream up to the
 * event (that event included), never further: a notice made late says what it would have said
 * on time, whatever happened to the bet since.
 */
export interface BetParties {
  creatorId: string | null;
  opponentId: string | null;
  /** A bet completed by a standing report is told of by its ReportStood, not its completion. */
  settledBy?: string | null;
  /** The reports each side had made by then. */
  creatorResolution?: string | null;
  opponentResolution?: string | null;
}

const BET_KINDS: Partial<Record<string, NotificationKind>> = {
  BetProposed: 'bet_proposed',
  BetAccepted: 'bet_answered',
  BetDeclined: 'bet_answered',
  BetDeleted: 'bet_answered',
  BetSideLeft: 'bet_answered',
  ResolutionSubmitted: 'outcome_reported',
  ResolutionDisputed: 'reports_disagree',
  BetCompleted: 'bet_completed',
  ReportStood: 'bet_completed',
};

/** Kinds both sides hear of, whoever acted. */
export const concernsBoth = (kind: NotificationKind) =>
  kind === 'reports_disagree' || kind === 'bet_completed';

/** The event types that may concern someone. */
export const NOTIFIABLE_TYPES: ReadonlySet<string> = new Set([
  ...Object.keys(BET_KINDS),
  'InviteAccepted',
  'FriendRequestSent',
]);

/** Whether an event may concern someone (so the bet's parties are worth reading). */
export const isNotifiable = (event: RecordedEvent) => NOTIFIABLE_TYPES.has(event.type);

/**
 * Who is told about an event, and as what kind: the other side of whoever acted, or both sides
 * when nobody in particular acted (a disagreement, a completion).
 */
export function noticesFor(event: RecordedEvent, parties: BetParties | null): Notice[] {
  if (event.type === 'FriendRequestSent') {
    const { receiverId } = friendshipEventSchemas.FriendRequestSent.parse(event.data);
    return [{ recipientId: receiverId, kind: 'friend_request', betId: null }];
  }
  if (event.type === 'InviteAccepted') {
    const { inviterId } = inviteEventSchemas.InviteAccepted.parse(event.data);
    return [{ recipientId: inviterId, kind: 'invite_accepted', betId: null }];
  }
  const kind = BET_KINDS[event.type];
  if (!kind || !parties || !event.streamId.startsWith('bet-')) return [];
  const betId = event.streamId.slice('bet-'.length);
  const { creatorId, opponentId } = parties;
  const to = (ids: (string | null)[]) =>
    ids
      .filter((id): id is string => id !== null)
      .map((recipientId) => ({ recipientId, kind, betId }));
  switch (event.type) {
    case 'BetProposed':
      return to([betEventSchemas.BetProposed.parse(event.data).opponentId]);
    case 'BetAccepted':
    case 'BetDeclined':
      return to([creatorId]);
    case 'BetDeleted':
      // A creator who withdraws a pending bet tells nobody, unless their account went with it.
      return betEventSchemas.BetDeleted.parse(event.data).reason === 'account_deleted'
        ? to([opponentId])
        : [];
    case 'ResolutionSubmitted': {
      const { party } = betEventSchemas.ResolutionSubmitted.parse(event.data);
      return to([party === 'creator' ? opponentId : creatorId]);
    }
    case 'BetSideLeft': {
      const { party } = betEventSchemas.BetSideLeft.parse(event.data);
      // A report the staying side had already made stands at once: it completes the bet in the
      // same append, and that completion tells them. A report made after is news of its own.
      const staying = party === 'creator' ? parties.opponentResolution : parties.creatorResolution;
      if (staying) return [];
      return to([party === 'creator' ? opponentId : creatorId]);
    }
    case 'BetCompleted':
      return parties.settledBy === 'standing' ? [] : to([creatorId, opponentId]);
    default:
      return to([creatorId, opponentId]);
  }
}
