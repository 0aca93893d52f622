import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { maxPosition, type GlobalPosition } from '@wagers/contracts/position';
import { LogWakeup } from '../event-store/wakeup.ts';
import { Batches } from './batches.ts';

/** Every change to a session row is announced here, so other processes drop what they hold. */
export const SESSIONS_CHANNEL = 'wagers_sessions';

/** PostgreSQL takes payloads up to 8000 bytes; a change takes at most about 110. */
const CHANGES_PER_NOTIFY = 60;

export interface CachedSession {
  userId: string;
  position: GlobalPosition | null;
  /** The furthest of those writes a process manager may react to. */
  reaction: GlobalPosition | null;
  /**
   * The furthest reaction position the process managers had passed before this row was read:
   * what they did in answer to the session's writes up to there is in it.
   */
  settled: GlobalPosition | null;
  /** Date.now() after which the session is over. */
  expiresAt: number;
  /** performance.now() just before the row this entry holds was read. */
  readAt: number;
}

/**
 * A change to announce: one session (by its token's hash) or every session of a user. The
 * payload is `<origin>|t:<hash>` or `<origin>|u:<userId>`, several joined by commas.
 */
export type SessionChange = { tokenHash: string } | { userId: string };

/** The NOTIFY payload of a change; `origin` names the process that applied it already. */
export const sessionChange = (change: SessionChange, origin = '') =>
  `${origin}|${'tokenHash' in change ? `t:${change.tokenHash}` : `u:${change.userId}`}`;

/**
 * The sessions this process has read, kept while the process LISTENs on `SESSIONS_CHANNEL`, which
 * hears every change to the table: a sign-out, a revocation or a moved position in any process is
 * announced there before that process answers, and every process drops the entry when it hears
 * it. The channel is listened on by the process's one listening connection (a `LogWakeup`, decision
 * 32). While that connection is down nothing is kept and every lookup reads the table.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private readonly byUser = new Map<string, Set<string>>();
  /** Reads in flight: a change heard meanwhile must keep their (maybe older) row out. */
  private readonly loads = new Set<{ tokenHash: string; changed: boolean }>();
  private readonly origin = randomUUID();
  private readonly wakeup: LogWakeup;
  /** performance.now() once LISTEN took effect; null while not listening. */
  private listeningSince: number | null = null;
  private closed = false;
  private readonly notifications: Batches<string>;
  /**
   * Round trips on the listening connection, one in flight: the calls that come meanwhile share
   * the next one.
   */
  private readonly syncs: Batches<null>;

  constructor(
    pool: pg.Pool,
    connectionString: string,
    private readonly maxEntries = 10_000,
  ) {
    this.notifications = new Batches(async (changes) => {
      await pool.query('SELECT pg_notify($1, $2)', [SESSIONS_CHANNEL, changes.join(',')]);
    }, CHANGES_PER_NOTIFY);
    this.syncs = new Batches(() => this.wakeup.heardUpToNow(), Infinity);
    this.wakeup = new LogWakeup(connectionString, SESSIONS_CHANNEL);
    this.wakeup.onWake((payload) => {
      if (payload) this.heard(payload);
    });
    // A dropped connection may have lost notifications with it: forget everything until it
    // listens again.
    this.wakeup.onListening((listening) => {
      if (listening && !this.closed) this.listeningSince = performance.now();
      else this.stopListening();
    });
  }

  /**
   * Resolves once the process listens. The wake-up listens again by itself after a drop, or after
   * a first try the database did not answer; meanwhile every lookup reads the table.
   */
  start(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.wakeup.ready();
  }

  private stopListening(): void {
    this.listeningSince = null;
    this.forgetAll();
  }

  private heard(payload: string): void {
    for (const item of payload.split(',')) {
      const [origin, change] = item.split('|');
      // Our own announcement: this process applied the change before sending it.
      if (origin === this.origin || !change) continue;
      if (change.startsWith('t:')) this.forgetToken(change.slice(2));
      else if (change.startsWith('u:')) this.forgetUser(change.slice(2));
    }
  }

  /**
   * The cached session, if it is known and still live once every change committed before this
   * call has been heard. A change is answered once its NOTIFY is committed, but it reaches this
   * process's connection a little later: the browser's next call, sent to this process, can
   * arrive first. PostgreSQL delivers a listener the notifications committed before a query
   * ahead of that query's answer, so one round trip on the listening connection, shared by the
   * calls that wait meanwhile, settles it.
   */
  async find(tokenHash: string): Promise<CachedSession | null> {
    if (!this.get(tokenHash)) return null;
    return (await this.heardUpToNow()) ? this.get(tokenHash) : null;
  }

  /**
   * Resolves true once the listening connection has answered a query sent after this call, so
   * every notification committed before it has been heard; false if it could not.
   */
  private heardUpToNow(): Promise<boolean> {
    return this.syncs.add(null).then(
      () => true,
      () => false,
    );
  }

  /** The cached session, if it is known and still live. */
  get(tokenHash: string): CachedSession | null {
    if (this.listeningSince === null) return null;
    const entry = this.entries.get(tokenHash);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      this.forgetToken(tokenHash);
      return null;
    }
    return entry;
  }

  /**
   * Reads the row with `read` and keeps it, unless a change to sessions was heard while the read
   * was in flight (the row may predate it) or the process was not listening when it began.
   */
  async load(
    tokenHash: string,
    read: () => Promise<Omit<CachedSession, 'readAt'> | null>,
  ): Promise<CachedSession | null> {
    const ticket = { tokenHash, changed: false };
    this.loads.add(ticket);
    const readAt = performance.now();
    try {
      const row = await read();
      if (!row) return null;
      const entry = { ...row, readAt };
      const since = this.listeningSince;
      if (!ticket.changed && since !== null && since <= readAt) this.keep(tokenHash, entry);
      return entry;
    } finally {
      this.loads.delete(ticket);
    }
  }

  private keep(tokenHash: string, entry: CachedSession): void {
    this.forgetToken(tokenHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.forgetToken(oldest);
    }
    this.entries.set(tokenHash, entry);
    let hashes = this.byUser.get(entry.userId);
    if (!hashes) this.byUser.set(entry.userId, (hashes = new Set()));
    hashes.add(tokenHash);
  }

  /** The process managers had passed `reaction` before the entry's row (read at `readAt`) was. */
  settled(tokenHash: string, readAt: number, reaction: GlobalPosition): void {
    const entry = this.entries.get(tokenHash);
    if (entry?.readAt === readAt) entry.settled = maxPosition(entry.settled, reaction);
  }

  /** This process moved the session's position: the entry follows (never lowered). */
  advanced(tokenHash: string, position: GlobalPosition, reaction: boolean): void {
    // A read in flight may have seen the row before the move.
    for (const load of this.loads) if (load.tokenHash === tokenHash) load.changed = true;
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    entry.position = maxPosition(entry.position, position);
    if (reaction) entry.reaction = maxPosition(entry.reaction, position);
  }

  forgetToken(tokenHash: string): void {
    for (const load of this.loads) if (load.tokenHash === tokenHash) load.changed = true;
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    this.entries.delete(tokenHash);
    const hashes = this.byUser.get(entry.userId);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) this.byUser.delete(entry.userId);
  }

  forgetUser(userId: string): void {
    // A read in flight may be for this user's session: it is not kept.
    for (const load of this.loads) load.changed = true;
    for (const tokenHash of this.byUser.get(userId) ?? []) this.entries.delete(tokenHash);
    this.byUser.delete(userId);
  }

  private forgetAll(): void {
    for (const load of this.loads) load.changed = true;
    this.entries.clear();
    this.byUser.clear();
  }

  /**
   * Tells every process of a change this one has made (and applied to itself). Resolves once the
   * NOTIFY is committed, so the caller answers only after every listener has been sent it.
   * Changes announced together share one NOTIFY.
   */
  announce(change: SessionChange): Promise<void> {
    return this.notifications.add(sessionChange(change, this.origin));
  }

  /**
   * The payloads announcing `changes` made by this process, for a statement that makes them to
   * send itself with `pg_notify` (so they are announced by its commit, in one round trip).
   */
  payloads(changes: SessionChange[]): string[] {
    const lines = changes.map((change) => sessionChange(change, this.origin));
    const payloads: string[] = [];
    for (let i = 0; i < lines.length; i += CHANGES_PER_NOTIFY) {
      payloads.push(lines.slice(i, i + CHANGES_PER_NOTIFY).join(','));
    }
    return payloads;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.notifications.drain().catch(() => undefined);
    this.stopListening();
    await this.wakeup.close();
  }
}
