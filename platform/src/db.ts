import pg from 'pg';

/**
 * A connection pool whose transactions cannot sit idle: an abandoned one would hold back every
 * reader of the global event log.
 */
export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    options: '-c idle_in_transaction_session_timeout=10000 -c statement_timeout=30000',
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next checkout.
  });
  return pool;
}

/** Runs `work` in one transaction on one connection. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
