import type { Config } from './config.ts';
import { startEmbeddedPostgres, startEmbeddedRedis } from './embedded.ts';
import { usableFolder } from './folders.ts';
import type { Logger } from './logger.ts';

export interface Infrastructure {
  databaseUrl: string;
  redisUrl: string;
  /** The servers this process started itself, named for people. */
  embedded: string[];
  stop(): Promise<void>;
}

/** Chooses PostgreSQL and Redis: the configured ones, else servers of our own. One log line each. */
export async function resolveInfrastructure(
  config: Config,
  logger: Logger,
): Promise<Infrastructure> {
  const stops: (() => Promise<void>)[] = [];
  const embeddedParts: string[] = [];
  if (!config.DATABASE_URL || !config.REDIS_URL) await usableFolder('DATA_DIR', config.DATA_DIR);
  let databaseUrl = config.DATABASE_URL;
  if (databaseUrl) {
    logger.info({ host: new URL(databaseUrl).host }, 'PostgreSQL: using DATABASE_URL');
  } else {
    const started = Date.now();
    // Under SCHED_BATCH only where the appends keep the default priority (decisions 31, 35).
    const embedded = await startEmbeddedPostgres(config.DATA_DIR, logger, {
      batch: config.APPEND_NICE === 0,
    });
    stops.push(() => embedded.stop());
    databaseUrl = embedded.url;
    embeddedParts.push(`PostgreSQL (${config.DATA_DIR}/postgres)`);
    logger.info(
      {
        dataDir: `${config.DATA_DIR}/postgres`,
        port: new URL(databaseUrl).port,
        ms: Date.now() - started,
      },
      'PostgreSQL: embedded server (set DATABASE_URL to use another)',
    );
  }
  let redisUrl = config.REDIS_URL;
  if (redisUrl) {
    logger.info({ host: new URL(redisUrl).host }, 'Redis: using REDIS_URL');
  } else {
    try {
      const embedded = await startEmbeddedRedis(config.DATA_DIR, logger);
      stops.push(() => embedded.stop());
      redisUrl = embedded.url;
      embeddedParts.push('Redis (redis-server from the PATH)');
      logger.info(
        { port: new URL(redisUrl).port },
        'Redis: redis-server from the PATH (set REDIS_URL to use another)',
      );
    } catch (error) {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
      throw error;
    }
  }
  logger.info(
    config.EVENT_STORE === 'postgres'
      ? 'Event store: postgres (the es_events table in the same database)'
      : 'Event store: eventstoredb at EVENTSTORE_URL',
  );
  return {
    databaseUrl,
    redisUrl,
    embedded: embeddedParts,
    async stop() {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
    },
  };
}
