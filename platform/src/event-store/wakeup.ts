import pg from 'pg';
import { comparePositions, type GlobalPosition } from '@wagers/contracts/position';

/** A NOTIFY payload may hold up to 8000 bytes; announcements are packed below that. */
const PAYLOAD_BYTES = 7000;

/**
 * The shortest time between two NOTIFYs from one process on one channel, in ms. Every NOTIFY is a
 * transaction that takes a lock of the whole database and wakes every listening connection of it,
 * whatever its channel: under a steady flow of commits, sent as fast as they come back they cost
 * the server as much as a third of the appends they announce. Followers elsewhere read the log at
 * most every few ms anyway.
 */
const NOTIFY_INTERVAL_MS = 5;

/**
 * One LISTEN connection shared by every follower in the process. If it drops it reconnects;
 * followers also poll slowly, so a notification lost in between only delays them.
 *
 * Writers in the process `announce()` their commits: listeners here are woken at once, in memory,
 * and other processes by a NOTIFY sent on this same connection after the commit (a transaction
 * that notifies holds a global lock through its commit's disk flush, so commits that notify
 * would go one at a time). NOTIFYs are coalesced, one in flight at a time and at most one per
 * NOTIFY_INTERVAL_MS, so a burst of commits costs a few round trips, not one each; announcements
 * with a payload (lines of text) are
 * packed into as few notifications as fit, and each line reaches listeners elsewhere on its own.
 */
export class LogWakeup {
  private client: pg.Client | null = null;
  private backendPid: number | null = null;
  private readonly listeners = new Set<(payload: string | null) => void>();
  private connecting: Promise<void> | null = null;
  private closed = false;
  private notifying: Promise<void> | null = null;
  /** Payloads announced and not yet sent; '' stands for a bare announcement. */
  private unsent = new Set<string>();
  private lastNotifyAt = -Infinity;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
  ) {}

  /** `listener` gets a notification's payload; null for an announcement here or a reconnection. */
  onWake(listener: (payload: string | null) => void): () => void {
    this.listeners.add(listener);
    void this.ready().catch(() => undefined);
    return () => this.listeners.delete(listener);
  }

  ready(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = null;
      throw error;
    });
    return this.connecting;
  }

  /**
   * Says that something was committed: wakes this process's listeners and, soon, everyone's.
   * `payload` (one line) says what, to listeners that read it.
   */
  announce(payload?: string): void {
    this.wakeAll(payload ?? null);
    if (this.closed) return;
    this.unsent.add(payload ?? '');
    this.startNotifying();
  }

  /**
   * Sends what is unsent, unless sending is under way: a NOTIFY in flight may have left before
   * the latest commit, so once it is done, what was announced meanwhile goes in the next one.
   */
  private startNotifying(): void {
    if (this.notifying || this.closed || this.unsent.size === 0) return;
    this.notifying = this.notifyUnsent().finally(() => {
      this.notifying = null;
      this.startNotifying();
    });
  }

  private async notifyUnsent(): Promise<void> {
    const wait = this.lastNotifyAt + NOTIFY_INTERVAL_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.lastNotifyAt = performance.now();
    const lines = [...this.unsent];
    this.unsent = new Set();
    try {
      await this.ready();
      await this.client?.query({
        name: 'log_notify',
        text: 'SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p',
        values: [this.channel, pack(lines)],
      });
    } catch {
      // Listeners elsewhere find out by their safety nets (a slow poll, a read on timeout).
    }
  }

  private wakeAll(payload: string | null = null): void {
    for (const listener of this.listeners) listener(payload);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      // Our own NOTIFY: the listeners here were woken when it was announced.
      if (message.processId === this.backendPid) return;
      for (const line of (message.payload ?? '').split('\n')) this.wakeAll(line || null);
    });
    client.on('error', () => {
      if (this.client === client) {
        this.client = null;
        this.connecting = null;
        setTimeout(() => {
          if (!this.closed && this.listeners.size > 0) void this.ready().catch(() => undefined);
        }, 500);
      }
    });
    await client.connect();
    const pid = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    this.backendPid = pid.rows[0]?.pid ?? null;
    // Anything appended while we were connecting is found by the follower's next read.
    this.wakeAll();
  }

  async close(): Promise<void> {
    while (this.notifying) await this.notifying;
    shared.forEach((entry, key) => entry.wakeup === this && shared.delete(key));
    this.closed = true;
    const client = this.client;
    this.client = null;
    await this.connecting?.catch(() => undefined);
    await (client ?? this.client)?.end().catch(() => undefined);
  }
}

/** A follower waiting for the log to move past `after`. */
export interface ProbeWaiter {
  after: GlobalPosition | null;
  /** Held back by an open transaction (looked at soon and often), or idle (the safety net). */
  held: boolean;
  /** Called once, when the probe sees events past `after`. */
  wake(): void;
}

/**
 * One look at the log for every follower of a store that waits, instead of one each: while
 * followers wait, the probe reads the head below the log's horizon and wakes those it has moved
 * past. Held-back followers are looked at after pauses growing from 5 ms to `pollIntervalMs` (an
 * open transaction that is not an append never says when it ends); idle ones every
 * `pollIntervalMs`, in case a notification was lost. So a long transaction elsewhere, or a quiet
 * log, costs one query per pause for the whole process, not one per follower.
 */
export class LogProbe {
  private readonly waiters = new Set<ProbeWaiter>();
  private timer: NodeJS.Timeout | null = null;
  private timerHeld = false;
  private probing = false;
  private heldDelay = 5;

  constructor(
    private readonly head: () => Promise<GlobalPosition | null>,
    private readonly pollIntervalMs: number,
  ) {}

  add(waiter: ProbeWaiter): void {
    const heldBefore = this.anyHeld();
    this.waiters.add(waiter);
    if (waiter.held && !heldBefore) {
      this.heldDelay = 5;
      // An idle look scheduled far off: look sooner.
      if (this.timer && !this.timerHeld) this.clearTimer();
    }
    this.schedule();
  }

  remove(waiter: ProbeWaiter): void {
    this.waiters.delete(waiter);
    if (this.waiters.size === 0) this.clearTimer();
  }

  close(): void {
    this.waiters.clear();
    this.clearTimer();
  }

  private anyHeld(): boolean {
    for (const waiter of this.waiters) if (waiter.held) return true;
    return false;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.probing || this.timer || this.waiters.size === 0) return;
    this.timerHeld = this.anyHeld();
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.probe();
      },
      this.timerHeld ? this.heldDelay : this.pollIntervalMs,
    );
  }

  private async probe(): Promise<void> {
    this.probing = true;
    try {
      const head = await this.head();
      let woke = false;
      for (const waiter of [...this.waiters]) {
        if (head && (!waiter.after || comparePositions(head, waiter.after) > 0)) {
          this.waiters.delete(waiter);
          waiter.wake();
          woke = true;
        }
      }
      this.heldDelay = woke ? 5 : Math.min(this.heldDelay * 2, this.pollIntervalMs);
    } catch {
      // The next look, or a notification, finds the events.
      this.heldDelay = this.pollIntervalMs;
    } finally {
      this.probing = false;
      this.schedule();
    }
  }
}

/** Lines packed into payloads of at most PAYLOAD_BYTES, a line break between two lines. */
function pack(lines: string[]): string[] {
  const payloads: string[] = [];
  let current = '';
  for (const line of lines) {
    if (current && Buffer.byteLength(current) + 1 + Buffer.byteLength(line) > PAYLOAD_BYTES) {
      payloads.push(current);
      current = line;
    } else current = current ? `${current}\n${line}` : line;
  }
  payloads.push(current);
  return payloads;
}

const shared = new Map<string, { wakeup: LogWakeup; users: number }>();

/**
 * The process's one LogWakeup for a channel of a database, so what a part of the process
 * announces reaches the others in memory. Give it back with `releaseWakeup`; the last user
 * closes it.
 */
export function sharedWakeup(connectionString: string, channel: string): LogWakeup {
  const key = `${channel} ${connectionString}`;
  const entry = shared.get(key) ?? { wakeup: new LogWakeup(connectionString, channel), users: 0 };
  entry.users += 1;
  shared.set(key, entry);
  return entry.wakeup;
}

export async function releaseWakeup(wakeup: LogWakeup): Promise<void> {
  for (const [key, entry] of shared) {
    if (entry.wakeup !== wakeup) continue;
    entry.users -= 1;
    if (entry.users > 0) return;
    shared.delete(key);
  }
  await wakeup.close();
}
