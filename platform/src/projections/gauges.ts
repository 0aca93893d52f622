import { LAG_COUNT_CAP, type ProjectorLag } from './lag.ts';

/** Said of the lag in events: a log without a count (EventStoreDB) counts up to a cap. */
const capped = `on EventStoreDB counted up to ${LAG_COUNT_CAP}: at least that many when it shows ${LAG_COUNT_CAP}`;

const build = (lag: ProjectorLag) => ({
  projector: lag.name,
  build: String(lag.build),
  version: String(lag.version),
  status: lag.status,
});

const statusCode = { live: 1, building: 2, retired: 3 } as const;

function perBuild(name: string, help: string, value: (lag: ProjectorLag) => number) {
  return {
    name: `wagers_projection_build_${name}`,
    help,
    labelNames: ['projector', 'build', 'version', 'status'],
    labels: build,
    value,
  };
}

/** The projections CLI's status figures as /metrics gauges, one series per build. */
export const projectionGauges = [
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
  perBuild(
    'events_applied',
    'Events a projector build has applied since it started',
    (lag) => lag.events,
  ),
  perBuild(
    'status',
    'State of each projector build: 1 live, 2 building, 3 retired',
    (lag) => statusCode[lag.status],
  ),
  {
    name: 'wagers_projection_stopped',
    help: 'A projector build (live or building) stopped at an event it cannot apply (1), with its position and error',
    labelNames: ['projector', 'build', 'position', 'event_id', 'error'],
    labels: (lag: ProjectorLag) => ({
      projector: lag.name,
      build: String(lag.build),
      position: lag.errorPosition ?? '',
      event_id: lag.errorEventId ?? '',
      error: (lag.error ?? '').slice(0, 200),
    }),
    // A retired build keeps the error it stopped with, but waits at nothing.
    value: (lag: ProjectorLag) => (lag.error && lag.status !== 'retired' ? 1 : null),
  },
] as const;
