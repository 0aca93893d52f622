import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from './embedded.ts';
import { createLogger } from './logger.ts';

describe('the embedded redis-server that npm start runs', () => {
  let dir: string;
  let redis: Awaited<ReturnType<typeof startEmbeddedRedis>>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wagers-embedded-redis-'));
    redis = await startEmbeddedRedis(dir, createLogger('silent'));
  });
  afterAll(async () => {
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is started again on the same address, with its data, when it dies', async () => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    client.on('error', () => undefined);
    try {
      await client.set('kept', 'yes');
      const first = redis.pid();
      process.kill(first!, 'SIGKILL');
      // The client waits through the restart and reconnects to the same port.
      expect(await client.get('kept')).toBe('yes');
      expect(redis.pid()).not.toBe(first);
    } finally {
      client.disconnect();
    }
  });

  it('stays stopped when stopped', async () => {
    await redis.stop();
    const client = new Redis(redis.url, {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    client.on('error', () => undefined);
    await expect(client.connect()).rejects.toThrow();
    client.disconnect();
  });
});
