import type { Projector } from '@wagers/platform/projections/projector';
import { createPool } from '@wagers/platform/db';
import { loadConfig } from '@wagers/platform/config';
import { createEventStore } from '@wagers/platform/event-store/factory';
import { createLogger } from '@wagers/platform/logger';
import { rebuildProjector } from '@wagers/projection-service/operator/projections';
import type { TestApp } from '../../test-support/test-app.ts';

/** Empties the projectors' tables and replays the whole log into them, as the operator CLI does. */
export async function rebuild(app: TestApp, projectors: Projector[]): Promise<void> {
  const pool = createPool(app.databaseUrl, 2);
  // The store the services use: personal fields read as written, or as erased.
  const store = createEventStore(loadConfig({}), pool, app.databaseUrl);
  try {
    for (const projector of projectors) {
      await rebuildProjector(projector, {
        pool,
        store,
        connectionString: app.databaseUrl,
        logger: createLogger('silent'),
        pollMs: 50,
      });
    }
  } finally {
    await store.close();
    await pool.end();
  }
}
