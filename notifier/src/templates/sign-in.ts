import { escapeHtml } from '@wagers/platform/html';
import type { Email } from '../mailer.ts';

export function signInEmail(to: string, link: string): Email {
  return {
    to,
    subject: 'Your Wagers sign-in link',
    text: `Sign in to Wagers by opening this link:\n\n${link}\n\nIt works once and expires in 15 minutes. If you did not ask for it, ignore this email.`,
    html: `<p>Sign in to Wagers by opening this link:</p>
<p><a href="${escapeHtml(link)}">Sign in to Wagers</a></p>
<p>It works once and expires in 15 minutes. If you did not ask for it, ignore this email.</p>`,
  };
}
