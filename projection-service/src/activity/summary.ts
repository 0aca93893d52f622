import {
  betStreamEventSchemas,
  type BetEvent,
  type BetStreamEvent,
} from '@wagers/contracts/events/bet';
import { summarize, type SummaryNames } from '../bets/history-summary.ts';

export interface ActivityNames extends SummaryNames {
  /** The other person of a friendship event, seen from the reader. */
  other: string;
}

function parse(type: string, data: unknown): BetStreamEvent | null {
  if (!Object.hasOwn(betStreamEventSchemas, type)) return null;
  const schema = betStreamEventSchemas[type as BetStreamEvent['type']];
  return { type, data: schema.parse(data) } as BetStreamEvent;
}

/** One line for an activity row, from the reader's side for friendship events. */
export function activitySummary(
  row: { type: string; data: unknown; isActor: boolean },
  names: ActivityNames,
): string | null {
  switch (row.type) {
    case 'FriendRequestSent':
      return row.isActor
        ? `You sent a friend request to ${names.other}`
        : `${names.other} sent you a friend request`;
    case 'FriendshipStarted':
      return `You and ${names.other} are now friends`;
    case 'BetMarkedPaid':
      return `${names.actor} marked the bet paid`;
    case 'BetPaymentConfirmed':
      return `${names.actor} confirmed the payment arrived`;
    case 'BetPaymentNotReceived':
      return `${names.actor} said the payment did not arrive`;
    case 'DrawOffered':
      return `${names.actor} offered to call it a draw`;
    case 'DrawAccepted':
      return `${names.actor} accepted the draw`;
    case 'ReportStood':
      return `${names.creator}'s report stands: no answer within 7 days`;
    default: {
      const event = parse(row.type, row.data);
      return event ? summarize(event as BetEvent, names) : null;
    }
  }
}
