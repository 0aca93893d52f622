import type { BuildRow } from './checkpoints.ts';
import { LAG_COUNT_CAP, type ProjectorLag } from './lag.ts';

/** Said of the lag in events: a log without a count (EventStoreDB) counts up to a cap. */
const capped = `on EventStoreDB counted up to ${LAG_COUNT_CAP}: at least that many when it shows ${LAG_COUNT_CAP}`;

/** One gauge of /metrics, a series per build of `Row`: a value of null leaves the build out. */
export interface BuildGauge<Row> {
  name: string;
  help: string;
  labelNames: readonly string[];
  labels: (row: Row) => Record<string, string>;
  value: (row: Row) => number | null;
}

const build = (row: BuildRow) => ({
  projector: row.name,
  build: String(row.build),
  version: String(row.version),
  status: row.status,
});

const statusCode = { live: 1, building: 2, retired: 3 } as const;

const perBuild = <Row extends BuildRow>(
  name: string,
  help: string,
  value: (row: Row) => number,
): BuildGauge<Row> => ({
  name: `wagers_projection_build_${name}`,
  help,
  labelNames: ['projector', 'build', 'version', 'status'],
  labels: build,
  value,
});

/** The projections CLI's lag figures as /metrics gauges. */
export const lagGauges: BuildGauge<ProjectorLag>[] = [
  {
    name: 'wagers_projection_lag_events',
    help: `Events in the log that the build reads see (the live one) has not applied yet (${capped})`,
    labelNames: ['projector'],
    labels: (lag: ProjectorLag) => ({ projector: lag.name }),
    value: (lag: ProjectorLag) => (lag.status === 'live' ? lag.lagEvents : null),
  },
  {
    name: 'wagers_projection_lag_seconds',
    help: 'Age of the oldest event the live build has not applied yet',
    labelNames: ['projector'],
    labels: (lag: ProjectorLag) => ({ projector: lag.name }),
    value: (lag: ProjectorLag) => (lag.status === 'live' ? lag.lagSeconds : null),
  },
  perBuild(
    'lag_events',
    `Events in the log that a projector build has not applied yet (${capped})`,
    (lag) => lag.lagEvents,
  ),
  perBuild(
    'lag_seconds',
    'Age of the oldest event a projector build has not applied yet',
    (lag) => lag.lagSeconds,
  ),
];

/** The projections CLI's other status figures as /metrics gauges, from the checkpoints alone. */
export const checkpointGauges: BuildGauge<BuildRow>[] = [
  perBuild(
    'events_applied',
    'Events a projector build has applied since it started',
    (row) => row.events,
  ),
  perBuild(
    'status',
    'State of each projector build: 1 live, 2 building, 3 retired',
    (row) => statusCode[row.status],
  ),
  {
    name: 'wagers_projection_stopped',
    help: 'A projector build (live or building) stopped at an event it cannot apply (1), with its position and error',
    labelNames: ['projector', 'build', 'position', 'event_id', 'error'],
    labels: (row: BuildRow) => ({
      projector: row.name,
      build: String(row.build),
      position: row.errorPosition ?? '',
      event_id: row.errorEventId ?? '',
      error: (row.error ?? '').slice(0, 200),
    }),
    // A retired build keeps the error it stopped with, but waits at nothing.
    value: (row: BuildRow) => (row.error && row.status !== 'retired' ? 1 : null),
  },
];

/** The projections CLI's status figures as /metrics gauges, one series per build. */
export const projectionGauges: readonly (BuildGauge<ProjectorLag> | BuildGauge<BuildRow>)[] = [
  ...lagGauges,
  ...checkpointGauges,
];
