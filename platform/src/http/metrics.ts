import type { RequestHandler, Router } from 'express';
import { Router as createRouter } from 'express';
import type { Pool } from 'pg';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EventStore } from '../event-store/port.ts';
import { operatorAuth } from './operator-auth.ts';
import { projectorLag, type ProjectorLag } from '../projections/lag.ts';
import { projectionGauges } from '../projections/gauges.ts';
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
  // Both lag gauges read the same figures: one query per scrape, shared for a second.
  let lagRead: { at: number; lags: Promise<ProjectorLag[]> } | null = null;
  const lags = ({ pool, store }: { pool: Pool; store: EventStore }) => {
    if (!lagRead || Date.now() - lagRead.at > 1000)
      lagRead = { at: Date.now(), lags: projectorLag(pool, store) };
    return lagRead.lags;
  };
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
  for (const gauge of projectionGauges) {
    new Gauge({
      ...gauge,
      labelNames: [...gauge.labelNames],
      registers: [registry],
      async collect() {
        if (!sources.projections) return;
        this.reset();
        for (const lag of await lags(sources.projections)) {
          const value = gauge.value(lag);
          if (value !== null) this.set(gauge.labels(lag), value);
        }
      },
    });
  }
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
