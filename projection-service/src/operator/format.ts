import type { BuildRow } from '@wagers/platform/projections/checkpoints';
import type { ProjectionStatus, RebuildProgress } from './projections.ts';

function table(header: string[], lines: string[][]): string[] {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...lines.map((line) => line[i]!.length)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [format(header), ...lines.map(format)];
}

/**
 * Whether a build waits at an event it cannot apply. A retired build keeps the error it stopped
 * with (to look at), but waits for nothing: nobody follows it, and there is nothing to skip.
 */
const isStopped = (row: ProjectionStatus['builds'][number]) =>
  row.error !== null && row.status !== 'retired';

/**
 * A build's state as status shows it: a build under way that is not indexed yet is loading the log
 * or, its lag gone, making its indexes (reads cannot switch to it before it has them).
 */
function state(row: ProjectionStatus['builds'][number]): string {
  if (isStopped(row)) return `${row.status}, stopped`;
  if (row.status === 'building' && !row.indexed)
    return row.lagEvents === 0 ? 'building, indexing' : 'building, loading';
  return row.status;
}

/** The status table: one line per build, then where any build stopped and why. */
export function formatStatus(status: ProjectionStatus): string {
  const header = [
    'projector',
    'build',
    'version',
    'state',
    'checkpoint',
    'applied',
    'lag (events)',
    'lag (seconds)',
  ];
  const lines = status.builds.map((row) => [
    row.name,
    String(row.build),
    String(row.version),
    state(row),
    row.position ?? '(start)',
    String(row.events),
    `${row.lagEventsAtLeast ? '≥ ' : ''}${row.lagEvents}`,
    row.lagSeconds.toFixed(1),
  ]);
  for (const name of status.neverRun) lines.push([name, '-', '-', 'never run', '', '', '', '']);
  const stopped = status.builds
    .filter(isStopped)
    .map(
      (row) =>
        `${row.name} build ${row.build} stopped at ${row.errorPosition ?? '?'} (event ${row.errorEventId ?? '?'}): ${row.error ?? ''}`,
    );
  return [`head of the log: ${status.head ?? '(empty log)'}`, ...table(header, lines), ...stopped]
    .join('\n')
    .concat(
      stopped.length > 0
        ? '\nFix the projector and restart it, or pass over the event: skip NAME POSITION'
        : '',
    );
}

/** One line per retired build dropped because its time to go had come, and why it had. */
export function formatDropped(dropped: BuildRow[], graceMs: number): string[] {
  return dropped.map(
    (row) =>
      `Dropped ${row.name} build ${row.build}, retired at ${row.retiredAt?.toISOString() ?? '?'}: ` +
      (row.position === null
        ? 'it never applied an event.'
        : `its grace period (${graceMs / 60_000} minutes) is over.`),
  );
}

const WIDTH = 30;

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
}

/**
 * One line of a rebuild's progress: a bar, counts, rate and time left. Where the total is only a
 * lower bound (the log counted up to a cap), the total and time left are shown as at least that,
 * and the share done as at most that.
 */
export function formatProgress(progress: RebuildProgress): string {
  const fraction = progress.total === 0 ? 1 : Math.min(1, progress.applied / progress.total);
  const filled = Math.round(fraction * WIDTH);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}]`;
  const [atMost, atLeast] = progress.totalAtLeast ? ['≤ ', '≥ '] : ['', ''];
  const left =
    progress.done || progress.secondsLeft === null
      ? ''
      : `, ${atLeast}${duration(progress.secondsLeft)} left`;
  return (
    `${progress.name} build ${progress.build} ${bar} ${atMost}${Math.floor(fraction * 100)}% ` +
    `${progress.applied.toLocaleString('en-US')}/${atLeast}${progress.total.toLocaleString('en-US')} events, ` +
    `${Math.round(progress.rate).toLocaleString('en-US')} events/s${left} (built by ${progress.runner})`
  );
}
