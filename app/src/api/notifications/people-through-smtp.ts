import { expect } from 'vitest';
import type { User } from '@wagers/contracts/api/user';
import type { TestSmtpServer } from '@wagers/test-support/smtp';
import type { ApiClient, TestApp } from '../../test-support/test-app.ts';
import { signInThroughSmtp } from './sign-in-through-smtp.ts';

/** A person signed in through the email link their SMTP server received, named `{firstName} Lee`. */
export async function personThroughSmtp(
  app: TestApp,
  smtp: TestSmtpServer,
  email: string,
  firstName: string,
): Promise<{ client: ApiClient; id: string }> {
  const client = await signInThroughSmtp(app.url, smtp, email);
  await app.settled();
  expect((await client.put('/api/user', { firstName, lastName: 'Lee' })).status).toBe(200);
  return { client, id: (await client.get<User>('/api/auth/user')).body.id };
}

/** A POST that must succeed. */
export async function postOk(client: ApiClient, path: string, body?: unknown) {
  const answer = await client.post(path, body);
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer;
}
