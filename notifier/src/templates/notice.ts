import type { NotificationKind } from '@wagers/contracts/api/notifications';
import { escapeHtml } from '@wagers/platform/html';
import type { Email } from '../mailer.ts';
import { oneLine } from './one-line.ts';

export interface NoticeMessage {
  kind: NotificationKind;
  eventType: string;
  actorName: string;
  betTitle: string | null;
  /** The bet's page, or Friends for a friendship notice. */
  link: string;
}

function subjectOf(given: NoticeMessage): string {
  const m = { ...given, actorName: oneLine(given.actorName) };
  const bet = `"${oneLine(m.betTitle ?? 'your bet')}"`;
  switch (m.kind) {
    case 'bet_proposed':
      return `${m.actorName} proposed a bet: ${bet}`;
    case 'bet_answered':
      if (m.eventType === 'BetDeleted')
        return `${bet} is off: the other side deleted their account`;
      if (m.eventType === 'BetSideLeft')
        return `The other side of ${bet} deleted their account: your report decides the outcome`;
      return `${m.actorName} ${m.eventType === 'BetDeclined' ? 'declined' : 'accepted'} your bet ${bet}`;
    case 'outcome_reported':
      return `${m.actorName} reported the outcome of ${bet}`;
    case 'reports_disagree':
      return `Your reports disagree on ${bet}`;
    case 'bet_completed':
      return m.eventType === 'ReportStood'
        ? `${bet} is complete: the reported outcome stands without an answer`
        : `${bet} is complete`;
    case 'invite_accepted':
      return `${m.actorName} accepted your invite`;
    case 'friend_request':
      return `${m.actorName} sent you a friend request`;
    case 'reminders':
      return `A reminder about ${bet}`;
  }
}

/**
 * An email that stops in one click: the List-Unsubscribe headers mail clients show (RFC 8058) and
 * the same link at the end of the body.
 */
export function unsubscribableEmail(
  to: string,
  m: { subject: string; lines: string[]; link: string; unsubscribeLink: string },
): Email {
  return {
    to,
    subject: m.subject,
    text: `${m.lines.join('\n\n')}\n\nOpen Wagers: ${m.link}\n\nStop these emails: ${m.unsubscribeLink}`,
    html: `${m.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(m.link)}">Open Wagers</a></p>
<p><a href="${escapeHtml(m.unsubscribeLink)}">Stop these emails</a></p>`,
    headers: {
      'List-Unsubscribe': `<${m.unsubscribeLink}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** One notification email, with a one-click unsubscribe for its kind. */
export function noticeEmail(to: string, m: NoticeMessage & { unsubscribeLink: string }): Email {
  const subject = subjectOf(m);
  return unsubscribableEmail(to, {
    subject,
    lines: [`${subject}.`],
    link: m.link,
    unsubscribeLink: m.unsubscribeLink,
  });
}

/** One notification text message: what happened, the link, and how to stop texts (STOP). */
export function noticeSms(m: NoticeMessage): string {
  return `Wagers: ${subjectOf(m)}. ${m.link} Reply STOP to opt out.`;
}
