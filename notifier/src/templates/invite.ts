import { escapeHtml } from '@wagers/platform/html';
import type { Email } from '../mailer.ts';
import { oneLine } from './one-line.ts';

export interface InviteMessage {
  inviterName: string;
  link: string;
  message: string | null;
  forBet: boolean;
}

export function inviteEmail(to: string, given: InviteMessage): Email {
  const invite = { ...given, inviterName: oneLine(given.inviterName) };
  const what = invite.forBet ? 'challenged you to a friendly bet' : 'invited you to be friends';
  const subject = `${invite.inviterName} ${what} on Wagers`;
  const note = invite.message ? `\n\n"${invite.message}"` : '';
  return {
    to,
    subject,
    text: `${invite.inviterName} ${what} on Wagers, an app for friendly bets between friends.${note}\n\nOpen this link to accept:\n${invite.link}\n\nIf you do not know ${invite.inviterName}, ignore this email.`,
    html: `<p><strong>${escapeHtml(invite.inviterName)}</strong> ${what} on Wagers, an app for friendly bets between friends.</p>
${invite.message ? `<blockquote>${escapeHtml(invite.message)}</blockquote>\n` : ''}<p><a href="${escapeHtml(invite.link)}">Accept the invitation</a></p>
<p>Or paste this link into your browser: ${escapeHtml(invite.link)}</p>
<p>If you do not know ${escapeHtml(invite.inviterName)}, ignore this email.</p>`,
  };
}

const MAX_NAME = 40;

/** One SMS: who, the link, how to opt out. Nothing else (no marketing). */
export function inviteSms(invite: InviteMessage): string {
  const inviter = oneLine(invite.inviterName);
  const name = inviter.length > MAX_NAME ? `${inviter.slice(0, MAX_NAME - 1)}…` : inviter;
  const what = invite.forBet
    ? 'challenged you to a friendly bet on Wagers'
    : 'invited you to Wagers';
  return `${name} ${what}: ${invite.link} Reply STOP to opt out.`;
}
