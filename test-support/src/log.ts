import pg from 'pg';

/** Runs one query against the test app's database. */
export async function queryDb<Row extends pg.QueryResultRow>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query<Row>(text, values)).rows;
  } finally {
    await db.end();
  }
}

/** The events of one stream, in order. */
export function streamEvents(databaseUrl: string, streamId: string) {
  return queryDb<{ id: string; type: string; data: Record<string, unknown> }>(
    databaseUrl,
    'SELECT event_id AS id, type, data FROM es_events WHERE stream_id = $1 ORDER BY stream_revision',
    [streamId],
  );
}

/** Waits (up to 20 s) until `check` holds. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
