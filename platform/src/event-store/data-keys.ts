import { createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { Pool } from 'pg';
import { isUuid } from '@wagers/contracts/ids';
import { LogWakeup } from './wakeup.ts';

/** Channel on which a process that destroyed keys tells the others to forget what they cached. */
const CHANNEL = 'wagers_data_keys';

/**
 * The keys that seal personal fields, one per data subject, in the table `data_keys`, kept apart
 * from the event log. Keys are cached in memory, so a rebuild reads each one once; destroying
 * keys empties every process's cache (NOTIFY on `wagers_data_keys`, and at once in this process).
 */
export interface DataKeys {
  /** The subject's key, made on first use. */
  keyFor(subject: string): Promise<{ keyId: string; key: KeyObject }>;
  /** Keys by id; a destroyed (or never made) key is absent from the answer. */
  keysById(keyIds: Iterable<string>): Promise<Map<string, KeyObject>>;
  /** Which of these subjects were erased (their keys destroyed). */
  erased(subjects: Iterable<string>): Promise<Set<string>>;
  /** Destroys the subjects' keys and lists them as erased; destroying twice changes nothing. */
  destroy(subjects: string[]): Promise<void>;
  close(): Promise<void>;
}

export function createDataKeys(pool: Pool, databaseUrl: string): DataKeys {
  const byId = new Map<string, KeyObject | null>();
  const bySubject = new Map<string, { keyId: string; key: KeyObject }>();
  const erasedCache = new Map<string, boolean>();
  const forget = () => {
    byId.clear();
    bySubject.clear();
    erasedCache.clear();
  };
  const wakeup = new LogWakeup(databaseUrl, CHANNEL);
  wakeup.onWake(forget);
  // Nothing is cached before the LISTEN is in place, so no destruction can go unheard.
  const listening = () => wakeup.ready();

  async function keyFor(subject: string) {
    await listening();
    const cached = bySubject.get(subject);
    if (cached) return cached;
    await pool.query(
      `INSERT INTO data_keys (key_id, subject, key) VALUES ($1, $2, $3)
       ON CONFLICT (subject) DO NOTHING`,
      [randomUUID(), subject, randomBytes(32)],
    );
    const { rows } = await pool.query<{ key_id: string; key: Buffer }>(
      'SELECT key_id, key FROM data_keys WHERE subject = $1',
      [subject],
    );
    const row = rows[0];
    // Destroyed between the two statements: the caller's append must not go out unsealed.
    if (!row) throw new Error('A data key was destroyed while it was being made');
    const found = { keyId: row.key_id, key: createSecretKey(row.key) };
    bySubject.set(subject, found);
    byId.set(found.keyId, found.key);
    return found;
  }

  async function keysById(keyIds: Iterable<string>) {
    await listening();
    const wanted = [...new Set(keyIds)];
    const missing = wanted.filter((id) => !byId.has(id));
    // A key id that is no UUID names no key (a sealed value edited in the database): it is absent,
    // like a destroyed key, without asking the database, which would refuse it as a uuid.
    const lookedUp = missing.filter(isUuid);
    const { rows } =
      lookedUp.length > 0
        ? await pool.query<{ key_id: string; key: Buffer }>(
            'SELECT key_id, key FROM data_keys WHERE key_id = ANY($1::uuid[])',
            [lookedUp],
          )
        : { rows: [] };
    for (const id of missing) byId.set(id, null);
    for (const row of rows) byId.set(row.key_id, createSecretKey(row.key));
    const found = new Map<string, KeyObject>();
    for (const id of wanted) {
      const key = byId.get(id);
      if (key) found.set(id, key);
    }
    return found;
  }

  async function erased(subjects: Iterable<string>) {
    await listening();
    const wanted = [...new Set(subjects)];
    const missing = wanted.filter((subject) => !erasedCache.has(subject));
    if (missing.length > 0) {
      const { rows } = await pool.query<{ subject: string }>(
        'SELECT subject FROM erased_subjects WHERE subject = ANY($1::text[])',
        [missing],
      );
      for (const subject of missing) erasedCache.set(subject, false);
      for (const row of rows) erasedCache.set(row.subject, true);
    }
    return new Set(wanted.filter((subject) => erasedCache.get(subject)));
  }

  async function destroy(subjects: string[]) {
    if (subjects.length === 0) return;
    await pool.query(
      `WITH gone AS (DELETE FROM data_keys WHERE subject = ANY($1::text[]))
       INSERT INTO erased_subjects (subject) SELECT unnest($1::text[])
       ON CONFLICT (subject) DO NOTHING`,
      [subjects],
    );
    wakeup.announce();
  }

  return { keyFor, keysById, erased, destroy, close: () => wakeup.close() };
}
