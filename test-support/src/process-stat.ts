import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';

/**
 * A process's name and its numbered fields of `/proc/PID/stat` (man 5 proc), or null when it is
 * gone or not on this machine. The name may hold spaces, so the fields are counted after it.
 */
export async function processStat(
  pid: number | string,
): Promise<{ name: string; field(n: number): number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    // Field 3, the state, is the first after the name.
    field: (n) => Number(fields[n - 3]),
  };
}

/** Linux's scheduling policies as /proc shows them (field 41). */
export const SCHED_OTHER = 0;
export const SCHED_BATCH = 3;
export const SCHED_IDLE = 5;

/** A process's scheduling policy (field 41), or null when it cannot be seen. */
export async function schedulingPolicy(pid: number): Promise<number | null> {
  return (await processStat(pid))?.field(41) ?? null;
}

/** Whether this process may lower process `pid`'s priority: root may, and so may its own user. */
export function mayRenice(pid: number): boolean {
  const uid = process.getuid?.();
  if (uid === 0) return true;
  const owner = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return owner !== undefined && Number(owner) === uid;
}

/** A process's autogroup nice value, as the kernel shows it ("/autogroup-12 nice 5"), or null where there are none. */
export function autogroupNice(pid: number): number | null {
  try {
    const match = / nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
