import pg from 'pg';
import type { User } from '@wagers/contracts/api/user';
import { comparePositions } from '@wagers/contracts/position';
import type { ApiClient, TestApp } from '../../test-support/test-app.ts';

/** How many events the log holds: bad input must leave it unchanged. */
export async function eventCount(app: TestApp): Promise<number> {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  try {
    const result = await db.query<{ count: string }>('SELECT count(*) AS count FROM es_events');
    return Number(result.rows[0]?.count ?? 0);
  } finally {
    await db.end();
  }
}

/** Signs a person in and returns their client and user id. */
export async function person(
  app: TestApp,
  email: string,
): Promise<{ client: ApiClient; id: string }> {
  const client = await app.signIn(email);
  const me = await client.get<User>('/api/auth/user');
  return { client, id: me.body.id };
}

/** Gives a signed-in person a name (PUT /api/user). */
export async function named(app: TestApp, email: string, firstName: string, lastName: string) {
  const signedIn = await person(app, email);
  const response = await signedIn.client.put('/api/user', { firstName, lastName });
  if (response.status !== 200)
    throw new Error(`naming ${email} failed: ${response.status} ${response.text}`);
  return signedIn;
}

/**
 * Lets `reader` see what `writer` wrote: read-your-writes is per client, and another person's
 * write reaches your lists only as fast as the projectors run.
 */
export function catchUp(reader: { client: ApiClient }, writer: { client: ApiClient }): void {
  const [mine, theirs] = [reader.client.position, writer.client.position];
  if (!theirs) return;
  if (!mine || comparePositions(theirs, mine) > 0) reader.client.position = theirs;
}
