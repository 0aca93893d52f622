import { summarize, type SummaryNames } from '../bets/history-summary.ts';
import { toBetEvent } from '../bets/history.ts';

export interface ActivityNames extends SummaryNames {
  /** The other person of a friendship event, seen from the reader. */
  other: string;
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
    default: {
      const event = toBetEvent(row.type, row.data);
      return event ? summarize(event, names) : null;
    }
  }
}
