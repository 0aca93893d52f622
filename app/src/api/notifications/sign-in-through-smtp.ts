import { ApiClient } from '../../test-support/test-app.ts';
import type { TestSmtpServer } from '@wagers/test-support/smtp';

/** Signs in through the real email-link flow when mail goes to a test SMTP server (not the dev inbox). */
export async function signInThroughSmtp(
  baseUrl: string,
  smtp: TestSmtpServer,
  email: string,
): Promise<ApiClient> {
  const address = email.toLowerCase();
  const linkIn = (text: string) =>
    /(https?:\/\/\S+\/api\/login\/verify\?token=[\w-]+)/.exec(text)?.[1];
  const seen = smtp.received.length;
  const client = new ApiClient(baseUrl);
  const asked = await client.post('/api/login/email', { email });
  if (asked.status !== 202) throw new Error(`sign-in link refused: ${asked.status}`);
  await smtp.waitFor(
    (mails) => mails.slice(seen).some((mail) => mail.to.includes(address) && linkIn(mail.text)),
    `a sign-in link for ${email}`,
  );
  const mail = smtp.received.slice(seen).find((m) => m.to.includes(address) && linkIn(m.text))!;
  const followed = await client.confirmLink(linkIn(mail.text)!);
  if (followed.status !== 303) throw new Error(`sign-in link failed: ${followed.status}`);
  return client;
}
