import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import { startTestApp, testRedisUrl, type TestApp } from '../../test-support/test-app.ts';
import { loadConfig } from '@wagers/platform/config';
import { eventually, queryDb } from '@wagers/test-support/log';
import { signInThroughSmtp } from './sign-in-through-smtp.ts';
import { startTestSmtpServer, type ReceivedMail } from '@wagers/test-support/smtp';
import { startStandaloneWorker } from './worker/standalone-worker.ts';

const invitations = (mails: ReceivedMail[]) =>
  mails.filter((mail) => mail.text.includes('/invite/'));

function copiesPerRecipient(mails: ReceivedMail[], recipients: string[]): number[] {
  return recipients.map((to) => invitations(mails).filter((mail) => mail.to.includes(to)).length);
}

async function deliveredCount(app: TestApp): Promise<number> {
  const rows = await queryDb<{ n: string }>(
    app.databaseUrl,
    `SELECT count(*) AS n FROM es_events WHERE type = 'InviteDelivered'`,
  );
  return Number(rows[0]!.n);
}

describe('invitations when things go wrong', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function setUp(env: Record<string, string> = {}) {
    const smtp = await startTestSmtpServer();
    cleanups.push(() => smtp.stop());
    const app = await startTestApp({ env: { SMTP_URL: smtp.url, ...env } });
    cleanups.push(() => app.stop());
    return { smtp, app };
  }

  it('delivers every invitation exactly once when the SMTP server refuses for a while, then accepts', async () => {
    const { smtp, app } = await setUp();
    const ann = await signInThroughSmtp(app.url, smtp, 'ann@example.com');
    const recipients = Array.from({ length: 6 }, (_, i) => `friend${i}@example.com`);
    smtp.refusing = true;
    for (const to of recipients) {
      expect(
        (await ann.post<CreateInviteResponse>('/api/invites', { inviteeEmail: to })).status,
      ).toBe(201);
    }
    // Every invitation refused at least twice: the first try and a retry after backoff.
    await eventually(
      () => Promise.resolve(smtp.refusals >= recipients.length * 2),
      'refusals and retries',
    );
    expect(invitations(smtp.received)).toEqual([]);
    smtp.refusing = false;

    await eventually(
      async () => (await deliveredCount(app)) === recipients.length,
      'every InviteDelivered',
    );
    expect(copiesPerRecipient(smtp.received, recipients)).toEqual(recipients.map(() => 1));
    const failures = await queryDb(
      app.databaseUrl,
      `SELECT 1 FROM es_events WHERE type = 'InviteDeliveryFailed'`,
    );
    expect(failures).toEqual([]);
  });

  it("records an address refused for good once, by the server's codes, never the address", async () => {
    const { smtp, app } = await setUp();
    const ann = await signInThroughSmtp(app.url, smtp, 'ann@example.com');
    smtp.rejecting.add('gone@example.com');
    expect((await ann.post('/api/invites', { inviteeEmail: 'gone@example.com' })).status).toBe(201);
    const failures = async () =>
      queryDb<{ data: string }>(
        app.databaseUrl,
        `SELECT data::text AS data FROM es_events WHERE type = 'InviteDeliveryFailed'`,
      );
    await eventually(async () => (await failures()).length === 1, 'InviteDeliveryFailed');
    const [failure] = await failures();
    expect(failure!.data).toContain('The mail server refused the message (550');
    expect(failure!.data).not.toContain('gone@');
    expect(invitations(smtp.received)).toEqual([]);
  });

  it(
    'loses nothing when a worker is killed in the middle of a batch and another starts',
    { timeout: 90_000 },
    async () => {
      const prefix = `wagers-test-${randomBytes(4).toString('hex')}`;
      const { smtp, app } = await setUp({ NOTIFIER_CONCURRENCY: '0', QUEUE_PREFIX: prefix });
      const workerEnv = {
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: app.databaseUrl,
        REDIS_URL: testRedisUrl,
        QUEUE_PREFIX: prefix,
        SMTP_URL: smtp.url,
        PUBLIC_URL: app.url,
      };
      // The app runs no worker: one of ours delivers the sign-in link, then leaves.
      const signInWorker = startStandaloneWorker(loadConfig(workerEnv), { concurrency: 1 });
      const ann = await signInThroughSmtp(app.url, smtp, 'ann@example.com');
      await signInWorker.stop();
      smtp.delayMs = 300;
      const recipients = Array.from({ length: 10 }, (_, i) => `batch${i}@example.com`);
      for (const to of recipients) {
        expect((await ann.post('/api/invites', { inviteeEmail: to })).status).toBe(201);
      }

      const script = fileURLToPath(new URL('./worker/worker-process.ts', import.meta.url));
      const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
        env: { ...process.env, ...workerEnv },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      cleanups.push(() => Promise.resolve(child.exitCode === null && child.kill('SIGKILL')));
      await smtp.waitFor(
        (mails) => invitations(mails).length >= 3,
        'the first invitations of the batch',
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const deliveredByFirst = invitations(smtp.received).length;
      expect(deliveredByFirst).toBeLessThan(recipients.length);

      smtp.delayMs = 0;
      const second = startStandaloneWorker(loadConfig(workerEnv), {
        concurrency: 2,
        stalledInterval: 500,
      });
      cleanups.push(() => second.stop());

      await eventually(
        async () => (await deliveredCount(app)) === recipients.length,
        'every InviteDelivered',
        30_000,
      );
      const copies = copiesPerRecipient(smtp.received, recipients);
      expect(copies.every((n) => n >= 1)).toBe(true);
      // At most the jobs that were in flight when the worker died (its concurrency) can go twice.
      expect(copies.filter((n) => n > 1).length).toBeLessThanOrEqual(2);
    },
  );
});
