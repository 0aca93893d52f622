import pg from 'pg';
import type { Pool } from 'pg';
import type { GlobalPosition } from '@wagers/contracts/position';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/port.ts';
import type { Logger } from '../logger.ts';
import { lockCheckpoint, resetProjector, saveCheckpoint } from './checkpoints.ts';
import type { Projector } from './projector.ts';

export interface ProjectorRunnerDeps {
  store: EventStore;
  pool: Pool;
  /** A connection of its own holds the projector's advisory lock for as long as it runs. */
  connectionString: string;
  logger: Logger;
  standbyRetryMs?: number;
  batchSize?: number;
}

export interface RunningProjector {
  readonly name: string;
  /** Resolves once this copy holds the lock (it may wait while another copy runs). */
  readonly active: Promise<void>;
  stop(): Promise<void>;
}

class CheckpointMoved extends Error {}

/**
 * Runs one projector: waits for its advisory lock (one active copy across all processes), then
 * follows the log from its checkpoint. Each page of events and the new checkpoint commit in one
 * transaction, so a crash never applies an event twice or skips one.
 */
export function runProjector(projector: Projector, deps: ProjectorRunnerDeps): RunningProjector {
  const log = deps.logger.child({ projector: projector.name });
  let stopped = false;
  let subscription: Subscription | null = null;
  let markActive: () => void = () => undefined;
  const active = new Promise<void>((resolve) => (markActive = resolve));
  let wakeStandby: (() => void) | null = null;

  async function acquireLock(): Promise<pg.Client | null> {
    while (!stopped) {
      const client = new pg.Client({ connectionString: deps.connectionString });
      client.on('error', (error) => log.warn({ err: error }, 'projector connection lost'));
      try {
        await client.connect();
        const result = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
          [`projector:${projector.name}`],
        );
        if (result.rows[0]?.locked) return client;
        await client.end();
      } catch (error) {
        log.warn({ err: error }, 'could not take the projector lock');
        await client.end().catch(() => undefined);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deps.standbyRetryMs ?? 1000);
        wakeStandby = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return null;
  }

  async function prepare(client: pg.Client): Promise<GlobalPosition | null> {
    await client.query('BEGIN');
    try {
      const checkpoint = await lockCheckpoint(client, projector);
      if (checkpoint.version !== projector.version) {
        log.info(
          { from: checkpoint.version, to: projector.version },
          'new projector version: rebuilding',
        );
        await resetProjector(client, projector);
        await client.query('COMMIT');
        return null;
      }
      await client.query('COMMIT');
      return checkpoint.position;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async function applyBatch(
    client: pg.Client,
    expected: { position: GlobalPosition | null },
    events: RecordedEvent[],
  ) {
    await client.query('BEGIN');
    try {
      const checkpoint = await lockCheckpoint(client, projector);
      // An operator reset (rebuild) moved the checkpoint under us: start again from it.
      if (checkpoint.position !== expected.position) throw new CheckpointMoved();
      for (const event of events) await projector.apply(client, event);
      const last = events[events.length - 1]!.position;
      await saveCheckpoint(client, projector.name, last, { status: 'running' });
      await client.query('COMMIT');
      expected.position = last;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async function follow(client: pg.Client): Promise<void> {
    while (!stopped) {
      const expected = { position: await prepare(client) };
      let failure: unknown = null;
      const current = deps.store.subscribeToAll({
        after: expected.position,
        batchSize: deps.batchSize ?? 500,
        onEvents: (events) => applyBatch(client, expected, events),
        onError: (error) => (failure = error),
      });
      subscription = current;
      // stop() may have run while this copy was preparing, before there was anything to stop.
      if (stopped) void current.stop();
      await current.done;
      subscription = null;
      if (stopped) return;
      if (failure instanceof CheckpointMoved) {
        log.info('checkpoint moved by an operator: following from it');
        continue;
      }
      // Any other failure may have broken the lock's connection: give the lock up and take it again.
      log.error({ err: failure }, 'projector failed; restarting');
      return;
    }
  }

  const running = (async () => {
    while (!stopped) {
      const lockClient = await acquireLock();
      if (!lockClient) return;
      markActive();
      log.info('projector active');
      try {
        await follow(lockClient);
      } catch (error) {
        log.error({ err: error }, 'projector failed; restarting');
      } finally {
        await lockClient.end().catch(() => undefined);
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();

  return {
    name: projector.name,
    active,
    async stop() {
      stopped = true;
      wakeStandby?.();
      await subscription?.stop();
      await running;
    },
  };
}
