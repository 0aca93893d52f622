import type { RequestHandler, Router } from 'express';
import { Router as createRouter } from 'express';
import type { Pool } from 'pg';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EventStore } from '../event-store/port.ts';
import { operatorAuth } from './operator-auth.ts';
import { projectorLag, type ProjectorLag } from '../projections/lag.ts';
import { readBuilds, type BuildRow } from '../projections/checkpoints.ts';
import { checkpointGauges, lagGauges, type BuildGauge } from '../projections/gauges.ts';
import { livePageEvents, livePageSeconds } from '../projections/page-metrics.ts';

export interface MetricsSources {
  /**
   * Who may read /metrics: with an operator credential, only its holder; without one, anyone in
   * development and nobody in production (the figures name routes, queues and load).
   */
  access: { operator?: { user: string; password: string }; production: boolean };
  /**
   * For the projection gauges: the PostgreSQL that keeps read models and checkpoints (whatever
   * the log), and the log their lag is counted in.
   */
  projections?: { pool: Pool; store: EventStore };
  /** Jobs waiting, active, delayed and failed in the notifier's queue. */
  queueDepth?: () => Promise<Record<string, number>>;
}

/** How long a scrape waits for the projections' lag before it leaves it out. */
const LAG_TIMEOUT_MS = 5_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Prometheus metrics: request latency by route (command latency is the non-GET part),
 * projection lag in events and seconds, and queue depth, read fresh on every scrape; and the time
 * and size of the live pages this process's projectors applied.
 */
export function createMetrics(sources: MetricsSources): {
  middleware: RequestHandler;
  router: Router;
} {
  const registry = new Registry();
  // The gauges read the same figures: one read of each per scrape, shared for a second.
  const shared = <T>(read: () => Promise<T>) => {
    let last: { at: number; value: Promise<T> } | null = null;
    return () => {
      if (!last || Date.now() - last.at > 1000) last = { at: Date.now(), value: read() };
      return last.value;
    };
  };
  const { projections } = sources;
  const builds = projections && shared(() => readBuilds(projections.pool));
  // A log out of reach, or too slow to answer (EventStoreDB, where the lag is read from the log),
  // leaves the lag unknown: its gauges have no series, never 0, and the others are still there.
  const lags =
    projections &&
    builds &&
    shared(() =>
      withTimeout(
        // The rows the checkpoint gauges read for this scrape: the checkpoints read once.
        builds().then((rows) => projectorLag(projections.pool, projections.store, { rows })),
        LAG_TIMEOUT_MS,
      ).catch(() => [] as ProjectorLag[]),
    );
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'wagers_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Live pages of this process's followers, kept since it started (page-metrics.ts).
  registry.registerMetric(livePageSeconds);
  registry.registerMetric(livePageEvents);
  const perBuild = <Row extends BuildRow>(
    gauge: BuildGauge<Row>,
    rows: (() => Promise<Row[]>) | undefined,
  ) =>
    new Gauge({
      name: gauge.name,
      help: gauge.help,
      labelNames: [...gauge.labelNames],
      registers: [registry],
      async collect() {
        if (!rows) return;
        this.reset();
        for (const row of await rows()) {
          const value = gauge.value(row);
          if (value !== null) this.set(gauge.labels(row), value);
        }
      },
    });
  for (const gauge of lagGauges) perBuild(gauge, lags);
  for (const gauge of checkpointGauges) perBuild(gauge, builds);
  new Gauge({
    name: 'wagers_queue_jobs',
    help: 'Notification jobs by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      if (!sources.queueDepth) return;
      for (const [state, count] of Object.entries(await sources.queueDepth()))
        this.set({ state }, count);
    },
  });

  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // The matched route pattern, never the raw URL: ids and tokens stay out of label values.
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      end({ method: req.method, route: String(route), status: String(res.statusCode) });
    });
    next();
  };
  const router = createRouter();
  const { operator, production } = sources.access;
  const send: RequestHandler = async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  };
  if (operator) router.get('/metrics', operatorAuth(operator.user, operator.password), send);
  else if (!production) router.get('/metrics', send);
  else
    router.get(
      '/metrics',
      (_req, res) => void res.status(404).type('text/plain').send('Not found'),
    );
  return { middleware, router };
}
