import type { Pool } from 'pg';
import { hourlySweep } from '../db.ts';
import { DomainError } from '../errors.ts';
import { limitRules, type LimitName, type LimitRule } from './rules.ts';
import {
  estimatedHits,
  secondsUntilRoom,
  slidingWindow,
  type SlidingWindow,
} from './sliding-window.ts';

/** A limit was reached; the problem handler answers 429 with Retry-After. */
export class RateLimitedError extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super('rate_limited', message, undefined, retryAfterSeconds);
  }
}

export interface LimitHit {
  rule: LimitName;
  /** Who or what is counted: a user id, an email address, a phone number. */
  key: string;
}

export interface RateLimits {
  /**
   * Counts one hit on each (rule, key), or, when any of them would go over its limit, none, and
   * throws RateLimitedError. Concurrent calls count in turn: a burst cannot slip under a limit.
   */
  consume(...hits: LimitHit[]): Promise<void>;
  /**
   * The same, counted once per `token` (e.g. the caller's idempotency key): a retry of a call
   * already counted passes without counting again, however many copies arrive at once.
   */
  consumeOnce(token: string, ...hits: LimitHit[]): Promise<void>;
}

/**
 * Counters in PostgreSQL, the store every command already depends on: a limit holds across
 * processes, survives restarts, and does not depend on Redis being up. Each counts one row per
 * key and window, and a call is weighed against this window and the one before
 * (`sliding-window.ts`), so a limit holds over any hour, not only over clock hours.
 */
export function rateLimits(pool: Pool, now: () => Date, rules = limitRules): RateLimits {
  const sweep = hourlySweep((at) => {
    // A window is read until the one after it has ended.
    const longest = Math.max(...Object.values(rules).map((rule: LimitRule) => rule.windowSeconds));
    const before = new Date(at.getTime() - 2 * longest * 1000);
    return pool.query(
      `WITH hits AS (DELETE FROM rate_limit_hits WHERE window_start < $1)
       DELETE FROM rate_limit_once WHERE counted_at < $1`,
      [before],
    );
  });
  const count = async (asked: LimitHit[], once?: string) => {
    // A row may change once per statement: the same hit twice counts once. Rows are locked in
    // one order by every call, so two calls sharing two counters cannot deadlock.
    const hits = [...new Map(asked.map((hit) => [`${hit.rule}:${hit.key}`, hit])).entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, hit]) => hit);
    if (hits.length === 0) return;
    const at = now();
    const windows = hits.map(({ rule, key }) => ({
      bucket: `${rule}:${key}`,
      ...slidingWindow(at, rules[rule].windowSeconds),
    }));
    const client = await pool.connect();
    let over:
      { rule: LimitName; window: SlidingWindow; current: number; previous: number } | undefined;
    try {
      await client.query('BEGIN');
      if (once) {
        // A second copy waits here for the first to commit (then finds its token) or roll back.
        const fresh = await client.query(
          'INSERT INTO rate_limit_once (token, counted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [once, at],
        );
        if (fresh.rowCount === 0) {
          await client.query('COMMIT');
          return;
        }
      }
      // The upsert locks each row until COMMIT, so concurrent calls count one after another. The
      // window before no longer changes: it is read as it stands.
      const result = await client.query<{ bucket: string; hits: number; previous: number }>(
        `WITH asked AS (
           SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS t(bucket, start, previous_start)
         ), counted AS (
           INSERT INTO rate_limit_hits (bucket, window_start, hits)
             SELECT bucket, to_timestamp(start), 1 FROM asked
             ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_hits.hits + 1
             RETURNING bucket, hits
         )
         SELECT counted.bucket, counted.hits, coalesce(before.hits, 0) AS previous
           FROM counted JOIN asked USING (bucket)
           LEFT JOIN rate_limit_hits before
             ON before.bucket = asked.bucket AND before.window_start = to_timestamp(asked.previous_start)`,
        [
          windows.map((w) => w.bucket),
          windows.map((w) => w.start),
          windows.map((w) => w.previousStart),
        ],
      );
      const counted = new Map(result.rows.map((row) => [row.bucket, row]));
      for (const [i, { rule }] of hits.entries()) {
        const window = windows[i]!;
        const row = counted.get(window.bucket);
        const current = row?.hits ?? 0;
        const previous = row?.previous ?? 0;
        if (estimatedHits(current, previous, window) > rules[rule].max) {
          over = { rule, window, current: current - 1, previous };
          break;
        }
      }
      // A refused call counts against nothing: an SMS refused for its number is not one of the
      // sender's texts.
      await client.query(over ? 'ROLLBACK' : 'COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    sweep(at);
    if (over) {
      const { windowSeconds, message, max } = rules[over.rule];
      const { current, previous, window } = over;
      throw new RateLimitedError(
        message,
        secondsUntilRoom(current, previous, max, window, windowSeconds),
      );
    }
  };
  return {
    consume: (...hits) => count(hits),
    consumeOnce: (token, ...hits) => count(hits, token),
  };
}
