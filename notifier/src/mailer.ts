import nodemailer from 'nodemailer';
import type { Pool } from 'pg';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(email: Email): Promise<void>;
  close(): void;
}

/**
 * SMTP_URL with pooled connections unless it says otherwise (`?pool=false`): a message then costs
 * its MAIL/RCPT/DATA, not a connection, greeting and EHLO (and TLS handshake) of its own.
 */
export function pooledSmtpUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.toString();
}

/**
 * nodemailer over SMTP_URL (pooled); without it, the message lands in the development inbox table.
 */
export function createMailer(options: { smtpUrl?: string; from: string; pool: Pool }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(pooledSmtpUrl(options.smtpUrl));
    return {
      async send(email) {
        await transport.sendMail({ from: options.from, ...email });
      },
      close: () => transport.close(),
    };
  }
  // The development inbox keeps the subject and bodies as given: rendering them as MIME first
  // (nodemailer's JSON transport) would hand back the same three strings.
  return {
    async send(email) {
      await options.pool.query(
        `INSERT INTO dev_outbox (channel, recipient, subject, text_body, html_body) VALUES ('email', $1, $2, $3, $4)`,
        [email.to, email.subject, email.text, email.html],
      );
    },
    close: () => undefined,
  };
}
