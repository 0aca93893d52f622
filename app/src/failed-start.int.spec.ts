import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queue } from 'bullmq';
import { commandService } from '@wagers/command-service/service';
import { openNotificationQueue } from '@wagers/notifier/queue';
import { queuedSignInMailer } from '@wagers/notifier/sign-in-mailer';
import { createLogger } from '@wagers/platform/logger';
import { hostService } from '@wagers/platform/service-host';
import { createTestDatabase, type TestDatabase } from '@wagers/test-support/database';
import { dropQueueKeys } from '@wagers/test-support/redis';
import { testConfig, testQueuePrefix, testRedisUrl } from './test-support/test-app.ts';

/**
 * A process whose start fails part way (here the command service, whose avatar folder is a file)
 * closes what its earlier parts opened, so nothing it made is left behind by the failure.
 */
describe('a start that fails part way', () => {
  let database: TestDatabase;
  let scratch: string;
  const queuePrefix = testQueuePrefix();

  beforeAll(async () => {
    database = await createTestDatabase();
    scratch = await mkdtemp(path.join(tmpdir(), 'wagers-failed-start-'));
  });
  afterAll(async () => {
    await database?.drop();
    await dropQueueKeys(testRedisUrl, queuePrefix);
    await rm(scratch, { recursive: true, force: true });
  });

  it('stops the parts built before the one that failed, and says why', async () => {
    const notAFolder = path.join(scratch, 'avatars');
    await writeFile(notAFolder, 'a file where the avatars folder should be');
    const config = testConfig(database.url, queuePrefix, { AVATAR_DIR: notAFolder });
    const built: { queue?: Queue } = {};
    const starting = hostService({
      config,
      logger: createLogger('silent'),
      migrations: [],
      parts: async function* (context) {
        const opened = openNotificationQueue(context);
        built.queue = opened.queue;
        yield opened.part;
        yield await commandService(context, queuedSignInMailer(opened.queue));
      },
    });
    await expect(starting).rejects.toThrow(/AVATAR_DIR/);
    const connection = await built.queue?.client;
    expect(connection?.status).toBe('end');
  });
});
