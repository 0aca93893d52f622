import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';

/**
 * The events of one stream as the services read them, personal fields opened (in `es_events`
 * they are sealed, decision 0018).
 */
export async function openedStreamEvents(databaseUrl: string, streamId: string) {
  const pool = createPool(databaseUrl, 2);
  const store = createEventStore(loadConfig({}), pool, databaseUrl);
  try {
    return (await store.readStream(streamId)).map(({ id, type, data }) => ({
      id,
      type,
      data: data as Record<string, unknown>,
    }));
  } finally {
    await store.close();
    await pool.end();
  }
}
