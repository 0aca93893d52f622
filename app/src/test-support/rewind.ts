import pg from 'pg';
import { rewindFollower } from '@wagers/platform/projections/builds';

/**
 * Sends a follower without tables (a dispatcher, a process manager) of the app's database back to
 * the start of the log, as an operator would: its next build reads everything again.
 */
export async function rewindFollowerOf(databaseUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await rewindFollower(client, name);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}
