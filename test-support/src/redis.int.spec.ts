import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { dropQueueKeys } from './redis.ts';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(url);
afterAll(() => redis.disconnect());

it("deletes a test's queue keys and nothing of another prefix", async () => {
  const mine = `wagers-test-${randomBytes(4).toString('hex')}`;
  const other = `${mine}x`;
  for (let i = 0; i < 2500; i++) await redis.set(`${mine}:notifications:${i}`, 'job');
  await redis.set(`${other}:notifications:1`, 'job');

  await dropQueueKeys(url, mine);

  expect(await redis.keys(`${mine}:*`)).toEqual([]);
  expect(await redis.keys(`${other}:*`)).toEqual([`${other}:notifications:1`]);
  await redis.del(`${other}:notifications:1`);
});
