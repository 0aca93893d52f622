import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Whether this process is the one a command line started to run its rebuild in: it leads a
 * session of its own and has a channel to the process that started it.
 */
export const runsInRebuildSession = () => process.send !== undefined && leadsItsSession();

/**
 * Runs this command line again, as a process that leads a session of its own, and answers with the
 * code it exits with (128 and the signal's number where a signal ended it). Where the kernel
 * groups the tasks of each session together (autogroup), only a session of its own lets the
 * rebuild's Node.js process weigh less than the services: lowering the session it was started in
 * would lower the operator's terminal, and outlast the rebuild (decision 36).
 *
 * Ctrl-C and SIGTERM are passed on, so the rebuild stops at its checkpoint as it would here; its
 * output goes where this process's goes. If this process ends without a word (SIGKILL), the
 * rebuild ends at once as well, as if killed with it.
 */
export function rebuildInSessionOfItsOwn(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pass = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', pass('SIGINT'));
  process.on('SIGTERM', pass('SIGTERM'));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      resolve(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0)),
    );
  });
}

/** In the rebuild's own process: ends it at once when the command line that started it is gone. */
export function endWithCommandLine(): void {
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}

/** Whether this process leads its session (field 6 of /proc/self/stat is the session's id). */
function leadsItsSession(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[3]) === process.pid;
  } catch {
    return false;
  }
}
