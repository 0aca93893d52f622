import type { NotificationKind } from '@wagers/contracts/api/notifications';
import { escapeHtml } from '@wagers/platform/html';
import type { Email } from '../mailer.ts';

export interface NoticeMessage {
  kind: NotificationKind;
  eventType: string;
  actorName: string;
  betTitle: string | null;
  /** The bet's page, or Friends for a friendship notice. */
  link: string;
  unsubscribeLink: string;
}

function subjectOf(m: NoticeMessage): string {
  const bet = `"${m.betTitle ?? 'your bet'}"`;
  switch (m.kind) {
    case 'bet_proposed':
      return `${m.actorName} proposed a bet: ${bet}`;
    case 'bet_answered':
      if (m.eventType === 'BetDeleted')
        return `${bet} is off: the other side deleted their account`;
      return `${m.actorName} ${m.eventType === 'BetDeclined' ? 'declined' : 'accepted'} your bet ${bet}`;
    case 'outcome_reported':
      return `${m.actorName} reported the outcome of ${bet}`;
    case 'reports_disagree':
      return `Your reports disagree on ${bet}`;
    case 'bet_completed':
      return `${bet} is complete`;
    case 'invite_accepted':
      return `${m.actorName} accepted your invite`;
    case 'friend_request':
      return `${m.actorName} sent you a friend request`;
  }
}

/**
 * One notification email, with a one-click unsubscribe for its kind: the List-Unsubscribe
 * headers mail clients show (RFC 8058) and the same link in the body.
 */
export function noticeEmail(to: string, m: NoticeMessage): Email {
  const subject = subjectOf(m);
  return {
    to,
    subject,
    text: `${subject}.\n\nOpen Wagers: ${m.link}\n\nStop these emails: ${m.unsubscribeLink}`,
    html: `<p>${escapeHtml(subject)}.</p>
<p><a href="${escapeHtml(m.link)}">Open Wagers</a></p>
<p><a href="${escapeHtml(m.unsubscribeLink)}">Stop these emails</a></p>`,
    headers: {
      'List-Unsubscribe': `<${m.unsubscribeLink}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
