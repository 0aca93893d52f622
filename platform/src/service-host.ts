import type { Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import type { Pool } from 'pg';
import { SessionStore } from './auth/sessions.ts';
import type { Config } from './config.ts';
import { lowerAppendPriority } from './backend-priority.ts';
import { createPool } from './db.ts';
import { createEventStore } from './event-store/factory.ts';
import type { EventStore } from './event-store/port.ts';
import { escapeHtml } from './html.ts';
import { baseApp } from './http/app.ts';
import { healthRouter, type ReadinessCheck } from './http/health.ts';
import { createMetrics } from './http/metrics.ts';
import { avatarBucketOrigins } from './http/security-headers.ts';
import { notFoundHandler, problemHandler } from './http/problem.ts';
import { mountedRoutes, type MountedRoute } from './http/routes.ts';
import { resolveInfrastructure } from './infrastructure.ts';
import { limitMigrations } from './limits/migrations.ts';
import type { Logger } from './logger.ts';
import { migrate, platformMigrations, type MigrationSet } from './migrations.ts';
import { systemRuntime, type Runtime } from './runtime.ts';

/** What every service part gets: settings, the database, the event store, sessions. */
export interface HostContext {
  config: Config;
  logger: Logger;
  runtime: Runtime;
  databaseUrl: string;
  redisUrl: string;
  pool: Pool;
  store: EventStore;
  sessions: SessionStore;
  /** Absolute origin for links in messages; known once the server listens. */
  publicUrl: () => string;
}

/** One service's contribution to a process: routes, background work, readiness, queue depth. */
export interface ServicePart {
  /** Named in the log if stopping it hangs. */
  name?: string;
  routers?: Router[];
  readiness?: Record<string, ReadinessCheck>;
  queueDepth?: () => Promise<Record<string, number>>;
  stop?: () => Promise<unknown>;
}

export interface HostOptions {
  config: Config;
  logger: Logger;
  runtime?: Runtime;
  migrations: MigrationSet[];
  /**
   * Builds the parts in order, yielding each once it stands; a later part may use what an earlier
   * one made. A part that fails to build stops the start, and the parts yielded before it are
   * stopped again, in reverse order.
   */
  parts: (context: HostContext) => AsyncIterable<ServicePart> | Iterable<ServicePart>;
  /** A built single-page app to serve for every path that is not an API route. */
  webDist?: string;
}

export interface RunningHost {
  url: string;
  databaseUrl: string;
  redisUrl: string;
  /** What the process serves, for the API document's coverage check. */
  routes(): MountedRoute[];
  /** The servers it started itself (embedded PostgreSQL, Redis), named for the start-up banner. */
  embedded: string[];
  stop(): Promise<void>;
}

/**
 * Starts a process: picks PostgreSQL and Redis, migrates, builds the parts, serves them with
 * request ids, sessions, /healthz, /readyz and /metrics, and stops everything in reverse order.
 */
export async function hostService(options: HostOptions): Promise<RunningHost> {
  const { config, logger } = options;
  const runtime = options.runtime ?? systemRuntime;
  const infrastructure = await resolveInfrastructure(config, logger);
  const stops: { name: string; run: () => Promise<unknown> }[] = [
    { name: 'infrastructure', run: () => infrastructure.stop() },
  ];
  const stop = async () => {
    for (const step of stops.reverse()) {
      // A step that hangs must not keep the process from stopping: give each one 10 s.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          logger.warn({ step: step.name }, 'stop step did not finish in 10 s; going on');
          resolve();
        }, 10_000);
      });
      await Promise.race([
        step
          .run()
          .catch((error: unknown) =>
            logger.warn({ err: error, step: step.name }, 'stop step failed'),
          ),
        timeout,
      ]);
      clearTimeout(timer);
    }
    stops.length = 0;
  };
  try {
    const { databaseUrl, redisUrl } = infrastructure;
    await migrate(
      databaseUrl,
      [platformMigrations, limitMigrations, ...options.migrations],
      logger,
    );
    const pool = createPool(databaseUrl, 20);
    stops.push({ name: 'database pool', run: () => pool.end() });
    const appendPool = createPool(databaseUrl, 10);
    stops.push({ name: 'append pool', run: () => appendPool.end() });
    lowerAppendPriority(appendPool, config.APPEND_NICE, logger);
    const store = createEventStore(config, pool, databaseUrl, { appendPool });
    stops.push({ name: 'event store', run: () => store.close() });
    const sessions = new SessionStore(pool, {
      ttlDays: config.SESSION_TTL_DAYS,
      secure: config.production,
      connectionString: databaseUrl,
    });
    await sessions.start();
    stops.push({ name: 'sessions', run: () => sessions.close() });
    let publicUrl = config.PUBLIC_URL ?? '';
    const context: HostContext = {
      config,
      logger,
      runtime,
      databaseUrl,
      redisUrl,
      pool,
      store,
      sessions,
      publicUrl: () => publicUrl,
    };
    const parts: ServicePart[] = [];
    for await (const part of options.parts(context)) {
      if (part.stop) stops.push({ name: part.name ?? `part ${parts.length}`, run: part.stop });
      parts.push(part);
    }

    const app = baseApp(logger, sessions, {
      production: config.production,
      publicUrl: () => publicUrl,
      uploadOrigins: avatarBucketOrigins(config),
    });
    const queueDepth = parts.find((part) => part.queueDepth)?.queueDepth;
    const metrics = createMetrics({
      // Read models and checkpoints are in PostgreSQL whatever the log: the gauges always have them.
      projections: { pool, store },
      queueDepth,
      access: {
        production: config.production,
        operator: config.OPERATOR_PASSWORD
          ? { user: config.OPERATOR_USER, password: config.OPERATOR_PASSWORD }
          : undefined,
      },
    });
    app.use(metrics.middleware);
    app.use(metrics.router);
    app.use(
      healthRouter({
        postgres: async () => {
          await pool.query('SELECT 1');
        },
        ...parts.reduce<Record<string, ReadinessCheck>>(
          (all, part) => ({ ...all, ...part.readiness }),
          {},
        ),
      }),
    );
    for (const part of parts) for (const router of part.routers ?? []) app.use(router);
    app.use('/api', notFoundHandler);
    if (options.webDist && existsSync(options.webDist)) {
      const dist = options.webDist;
      // The app's mailboxes come from configuration, handed over in the page it loads from.
      const indexHtml = readFileSync(path.join(dist, 'index.html'), 'utf8').replace(
        '<head>',
        `<head>\n    <meta name="wagers:support-email" content="${escapeHtml(config.SUPPORT_EMAIL)}" />` +
          `\n    <meta name="wagers:privacy-email" content="${escapeHtml(config.PRIVACY_EMAIL)}" />`,
      );
      app.use(express.static(dist, { index: false, maxAge: '1h' }));
      app.get('/{*path}', (_req, res) => {
        res.setHeader('cache-control', 'no-cache');
        res.type('html').send(indexHtml);
      });
    } else if (options.webDist) {
      logger.warn('web/dist is missing: run `npm run build` to serve the web app');
    }
    app.use(problemHandler);

    const server: Server = await new Promise((resolve, reject) => {
      const listening = app.listen(config.PORT, () => resolve(listening));
      listening.once('error', reject);
    });
    stops.push({
      name: 'http server',
      run: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    publicUrl ||= `http://localhost:${port}`;
    logger.info({ url: publicUrl, devInbox: config.devInbox }, 'listening');
    return {
      url: `http://localhost:${port}`,
      databaseUrl,
      redisUrl,
      routes: () => mountedRoutes(app),
      embedded: infrastructure.embedded,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
