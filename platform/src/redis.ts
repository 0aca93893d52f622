import type { RedisOptions } from 'ioredis';

/** BullMQ connection options from a redis:// URL; workers need maxRetriesPerRequest: null. */
export function redisConnection(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username || undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : undefined,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

/**
 * For a client that only puts jobs on a queue: while Redis is away its calls fail at once rather
 * than wait, unbounded, in the offline queue. It still reconnects on its own.
 */
export function redisProducerConnection(url: string): RedisOptions {
  return { ...redisConnection(url), enableOfflineQueue: false, maxRetriesPerRequest: 1 };
}
