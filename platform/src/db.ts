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
  // A checked-out client whose connection drops (a restart of the server, a failover) says so
  // on its own 'error' event, which nothing hears while the client is out of the pool: unheard,
  // it would end the process. Its query under way fails as it is, what it is sent next fails too,
  // and the pool drops it when it comes back.
  pool.on('connect', (client) => client.on('error', () => undefined));
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

const SWEEP_EVERY_MS = 3600_000;

/**
 * Housekeeping that rides on a table's own traffic: the function returned runs `sweep` when
 * called at most once an hour per process, without waiting for it; a sweep that fails is left to
 * the next.
 */
export function hourlySweep(sweep: (at: Date) => Promise<unknown>): (at: Date) => void {
  let lastSweep = 0;
  return (at) => {
    if (at.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at.getTime();
    sweep(at).catch(() => undefined);
  };
}
