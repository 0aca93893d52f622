import { readdir, readFile } from 'node:fs/promises';

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
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    if (!names.includes(name)) continue;
    // After the name: state, then utime and stime are the 12th and 13th fields.
    const fields = stat.slice(close + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    total.set(name, (total.get(name) ?? 0) + ticks * TICK_MS);
  }
  return total;
}

/** CPU ms of this process so far, user and system. */
export function ownCpu(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const POLICIES: Record<number, string> = { 0: 'SCHED_OTHER', 3: 'SCHED_BATCH', 5: 'SCHED_IDLE' };

/**
 * The Linux scheduling policy of the backend serving `client`'s connection (decision 31: on a
 * machine whose cores the server shares, it moved the live bench's latencies by a fifth or more),
 * or that it cannot be seen from here (a server on another machine).
 */
export async function serverPolicy(client: {
  query(text: string): Promise<{ rows: unknown[] }>;
}): Promise<string> {
  const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
  const pid = (rows[0] as { pid: number } | undefined)?.pid;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat.includes('(postgres)')) return 'a scheduling policy not seen from here';
  // Field 41; the fields are counted from the state, the third.
  const policy = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]);
  return POLICIES[policy] ?? `scheduling policy ${policy}`;
}
