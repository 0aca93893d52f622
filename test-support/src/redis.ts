import { Redis } from 'ioredis';

/**
 * Deletes every key under a test's queue prefix (`prefix:*`): each test app queues under a prefix
 * of its own, and the jobs it leaves behind would otherwise pile up in a developer's Redis run
 * after run.
 */
export async function dropQueueKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
