import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import express from 'express';
import { commandRouter } from '@wagers/command-service/app';
import { allProjectors } from '@wagers/projection-service/projectors';
import { queryRouter } from '@wagers/projection-service/app';
import { readModelMigrations } from '@wagers/projection-service/migrations';
import { devOutboxRouter } from '@wagers/notifier/dev-routes';
import { NOTIFICATIONS_QUEUE, type NotificationJob } from '@wagers/notifier/jobs';
import { createMailer } from '@wagers/notifier/mailer';
import { queuedSignInMailer } from '@wagers/notifier/sign-in-mailer';
import { startNotificationWorker } from '@wagers/notifier/worker';
import { SessionStore } from '@wagers/platform/auth/sessions';
import type { Config } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { baseApp } from '@wagers/platform/http/app';
import { healthRouter } from '@wagers/platform/http/health';
import { createMetrics } from '@wagers/platform/http/metrics';
import { notFoundHandler, problemHandler } from '@wagers/platform/http/problem';
import { resolveInfrastructure } from '@wagers/platform/infrastructure';
import type { Logger } from '@wagers/platform/logger';
import { migrate, platformMigrations } from '@wagers/platform/migrations';
import { runProjector } from '@wagers/platform/projections/runner';
import { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import { redisConnection } from '@wagers/platform/redis';
import { systemRuntime, type Runtime } from '@wagers/platform/runtime';

const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface RunningWagers {
  url: string;
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/**
 * The whole product in one process: command and query APIs, projectors, the notifier and the web
 * app on one port. Production runs the same parts as separate services (docker-compose.yml).
 */
export async function startWagers(
  config: Config,
  logger: Logger,
  runtime: Runtime = systemRuntime,
): Promise<RunningWagers> {
  const infrastructure = await resolveInfrastructure(config, logger);
  const stops: (() => Promise<unknown>)[] = [() => infrastructure.stop()];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error: unknown) => logger.warn({ err: error }, 'stop step failed'));
  };
  try {
    const { databaseUrl, redisUrl } = infrastructure;
    await migrate(databaseUrl, [platformMigrations, readModelMigrations], logger);
    const pool = createPool(databaseUrl, 20);
    stops.push(() => pool.end());
    const store = createEventStore(config, pool, databaseUrl);
    stops.push(() => store.close());
    const sessions = new SessionStore(pool, { ttlDays: config.SESSION_TTL_DAYS, secure: config.production });
    const watcher = new ProjectionWatcher(pool, databaseUrl);
    await watcher.start();
    stops.push(() => watcher.close());

    const connection = redisConnection(redisUrl);
    const queue = new Queue<NotificationJob>(NOTIFICATIONS_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
    stops.push(() => queue.close());
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, pool });
    const worker = startNotificationWorker({ connection, mailer, logger, prefix: config.QUEUE_PREFIX });
    stops.push(async () => {
      await worker.close();
      mailer.close();
    });

    const projectors = allProjectors.map((projector) =>
      runProjector(projector, { store, pool, connectionString: databaseUrl, logger }),
    );
    stops.push(() => Promise.all(projectors.map((p) => p.stop())));

    let publicUrl = config.PUBLIC_URL ?? '';
    const app = baseApp(logger, sessions);
    const metrics = createMetrics({
      pool,
      queueDepth: () => queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
    });
    app.use(metrics.middleware);
    app.use(metrics.router);
    app.use(
      healthRouter({
        postgres: async () => {
          await pool.query('SELECT 1');
        },
        redis: async () => {
          await queue.count();
        },
      }),
    );
    app.use(
      commandRouter({
        config,
        store,
        pool,
        runtime,
        logger,
        sessions,
        signInMailer: queuedSignInMailer(queue),
        publicUrl: () => publicUrl,
      }),
    );
    app.use(queryRouter({ config, pool, watcher, logger }));
    if (config.devInbox) app.use(devOutboxRouter(pool));
    app.use('/api', notFoundHandler);
    if (existsSync(webDist)) {
      app.use(express.static(webDist, { index: false, maxAge: '1h' }));
      app.get('/{*path}', (_req, res) => {
        res.sendFile(path.join(webDist, 'index.html'), { maxAge: 0 });
      });
    } else {
      logger.warn('web/dist is missing: run `npm run build` to serve the web app');
    }
    app.use(problemHandler);

    const server: Server = await new Promise((resolve, reject) => {
      const listening = app.listen(config.PORT, () => resolve(listening));
      listening.once('error', reject);
    });
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    publicUrl ||= `http://localhost:${port}`;
    logger.info({ url: publicUrl, devInbox: config.devInbox }, 'Wagers is running');
    return { url: `http://localhost:${port}`, databaseUrl, redisUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
