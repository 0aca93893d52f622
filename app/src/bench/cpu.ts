import { readdir } from 'node:fs/promises';
import type pg from 'pg';
import {
  processStat,
  SCHED_BATCH,
  SCHED_IDLE,
  SCHED_OTHER,
} from '@wagers/test-support/process-stat';

/** Linux counts a process's CPU time in ticks of 1/100 s (USER_HZ). */
const TICK_MS = 10;

/**
 * CPU ms so far of every process of this machine whose name is one of `names` (the servers a
 * request costs besides the product's own process: `postgres`, `redis-server`), by name.
 */
export async function serverCpu(names: readonly string[]): Promise<Map<string, number>> {
  const total = new Map<string, number>();
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await processStat(pid);
    if (!stat || !names.includes(stat.name)) continue;
    const ticks = stat.field(14) + stat.field(15); // utime and stime
    total.set(stat.name, (total.get(stat.name) ?? 0) + ticks * TICK_MS);
  }
  return total;
}

/** CPU ms of this process so far, user and system. */
export function ownCpu(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const POLICIES: Record<number, string> = {
  [SCHED_OTHER]: 'SCHED_OTHER',
  [SCHED_BATCH]: 'SCHED_BATCH',
  [SCHED_IDLE]: 'SCHED_IDLE',
};

/**
 * The Linux scheduling policy of the backend serving `client`'s connection (decision 31: on a
 * machine whose cores the server shares, it moved the live bench's latencies by a fifth or more),
 * or that it cannot be seen from here (a server on another machine).
 */
export async function serverPolicy(client: pg.Pool | pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = rows[0]?.pid ?? 0;
  const stat = await processStat(pid);
  if (stat?.name !== 'postgres') return 'a scheduling policy not seen from here';
  const policy = stat.field(41);
  return POLICIES[policy] ?? `scheduling policy ${policy}`;
}
