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

/** After a dropped LISTEN connection, the first wait before connecting again, and the longest. */
const RETRY_MS = 500;
const MAX_RETRY_MS = 5_000;

/**
 * A channel's wake-ups in this process. Every LogWakeup of a process on one database shares one
 * connection (`ListenConnection`), which LISTENs on all their channels: a NOTIFY wakes every
 * listening backend of the database whatever its channel, so each connection more would cost the
 * server a wake-up per NOTIFY. If the connection drops it reconnects; followers also poll slowly,
 * so a notification lost in between only delays them.
 *
 * Writers in the process `announce()` their commits: listeners of the channel here (of every
 * LogWakeup on it) are woken at once, in memory, and other processes by a NOTIFY sent after the
 * commit on the process's sending connection (a transaction that notifies holds a global lock through its
 * commit's disk flush, so commits that notify would go one at a time). NOTIFYs are coalesced, one
 * in flight at a time per channel and at most one per NOTIFY_INTERVAL_MS, so a burst of commits
 * costs a few round trips, not one each; announcements with a payload (lines of text) are packed
 * into as few notifications as fit, and each line reaches listeners elsewhere on its own.
 */
export class LogWakeup {
  private readonly listeners = new Set<(payload: string | null) => void>();
  private readonly listenChanges = new Set<(listening: boolean) => void>();
  private listening = false;
  private readonly connection: ListenConnection;
  private closed = false;
  private notifying: Promise<void> | null = null;
  /** Payloads announced and not yet sent; '' stands for a bare announcement. */
  private unsent = new Set<string>();
  private lastNotifyAt = -Infinity;

  constructor(
    connectionString: string,
    readonly channel: string,
  ) {
    this.connection = ListenConnection.of(connectionString);
  }

  /** `listener` gets a notification's payload; null for an announcement here or a reconnection. */
  onWake(listener: (payload: string | null) => void): () => void {
    this.listeners.add(listener);
    void this.ready().catch(() => undefined);
    return () => this.listeners.delete(listener);
  }

  /**
   * `listener` hears `true` once the process LISTENs on this channel (after `ready()`, and again
   * after each reconnection) and `false` as soon as the connection drops: notifications may have
   * been lost from then until the next `true`.
   */
  onListening(listener: (listening: boolean) => void): () => void {
    this.listenChanges.add(listener);
    return () => this.listenChanges.delete(listener);
  }

  /** Resolves once the process LISTENs on this channel. */
  ready(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.connection.add(this);
    return this.connection.listening(this.channel).then(() => this.listened(true));
  }

  /**
   * Resolves once the listening connection has answered a query sent after this call: every
   * notification committed before the call has then been handed to the listeners (PostgreSQL
   * delivers a listener's notifications ahead of the answer to its next query). Rejects if the
   * process is not listening, or the connection drops meanwhile.
   */
  heardUpToNow(): Promise<void> {
    return this.connection.roundTrip();
  }

  /**
   * Says that something was committed: wakes this process's listeners and, soon, everyone's.
   * `payload` (one line) says what, to listeners that read it.
   */
  announce(payload?: string): void {
    this.connection.wakeHere(this.channel, payload ?? null);
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
      // Sending needs no LISTEN: a process that only writes listens on nothing.
      await this.connection.notify(this, pack(lines));
    } catch {
      // Listeners elsewhere find out by their safety nets (a slow poll, a read on timeout).
    }
  }

  /** @internal Called by the connection: a notification, an announcement here, a reconnection. */
  wake(payload: string | null): void {
    for (const listener of this.listeners) listener(payload);
  }

  /** @internal Called by the connection: LISTEN on the channel took effect, or the connection dropped. */
  listened(listening: boolean): void {
    if (this.closed || this.listening === listening) return;
    this.listening = listening;
    for (const listener of this.listenChanges) listener(listening);
  }

  async close(): Promise<void> {
    while (this.notifying) await this.notifying;
    shared.forEach((entry, key) => entry.wakeup === this && shared.delete(key));
    this.closed = true;
    await this.connection.leave(this);
  }
}

/**
 * The one LISTEN connection of a process to a database: it listens on the channels of every
 * LogWakeup that joined it and hands each notification to those of its channel. Their NOTIFYs go
 * out on a second connection, so the listening one is idle whenever a notification comes in: a
 * backend hands its client notifications only between its own transactions. It connects when the
 * first joins, ends when the last leaves, and after a drop, or a first try the database did not
 * answer, connects again (listening on every channel anew) while any is joined.
 */
class ListenConnection {
  /** One per connection string for the process's life; its connections come and go with use. */
  private static readonly open = new Map<string, ListenConnection>();

  static of(connectionString: string): ListenConnection {
    let connection = ListenConnection.open.get(connectionString);
    if (!connection) {
      connection = new ListenConnection(connectionString);
      ListenConnection.open.set(connectionString, connection);
    }
    return connection;
  }

  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  /** The connection NOTIFYs go out on, and its backend's pid (whose notifications are ours). */
  private sender: Promise<pg.Client> | null = null;
  private senderPid: number | null = null;
  /** Every LogWakeup that listens or sends here; the last to leave ends both connections. */
  private readonly users = new Set<LogWakeup>();
  private readonly channels = new Map<string, Set<LogWakeup>>();
  /** Per channel: resolves once LISTEN on it has taken effect on the current connection. */
  private readonly listens = new Map<string, Promise<void>>();
  private retryMs = RETRY_MS;
  private retry: NodeJS.Timeout | null = null;
  /** Moves on when the last user leaves: a connection opened before then is not kept. */
  private generation = 0;

  private constructor(private readonly connectionString: string) {}

  /** A LogWakeup that sends on this connection: it stays open until every user has left. */
  use(wakeup: LogWakeup): void {
    this.users.add(wakeup);
  }

  /** A LogWakeup that listens: its channel is listened on while any listens to it. */
  add(wakeup: LogWakeup): void {
    this.use(wakeup);
    let members = this.channels.get(wakeup.channel);
    if (!members) this.channels.set(wakeup.channel, (members = new Set()));
    members.add(wakeup);
  }

  /**
   * Resolves once this connection LISTENs on `channel`, connecting first if need be. When LISTEN
   * takes effect the channel's listeners are woken: what was committed before it may have gone
   * unheard.
   */
  listening(channel: string): Promise<void> {
    let listen = this.listens.get(channel);
    if (!listen) {
      listen = this.connect()
        .then((client) => client.query(`LISTEN ${pg.escapeIdentifier(channel)}`))
        .then(() => {
          for (const wakeup of this.channels.get(channel) ?? []) wakeup.listened(true);
          this.wakeHere(channel, null);
        });
      this.listens.set(channel, listen);
      const settled = listen;
      settled.catch(() => {
        if (this.listens.get(channel) !== settled) return;
        this.listens.delete(channel);
        // The database could not be reached yet (or refused the LISTEN): try again, as after a drop.
        if (this.channels.has(channel)) this.relisten();
      });
    }
    return listen;
  }

  async leave(wakeup: LogWakeup): Promise<void> {
    if (!this.users.delete(wakeup)) return;
    const members = this.channels.get(wakeup.channel);
    const client = this.client;
    if (this.users.size === 0) {
      this.generation += 1;
      const sender = this.sender;
      this.channels.clear();
      this.listens.clear();
      this.client = null;
      this.connecting = null;
      this.sender = null;
      await Promise.all([
        client?.end().catch(() => undefined),
        sender?.then((opened) => opened.end()).catch(() => undefined),
      ]);
    } else if (members?.delete(wakeup) && members.size === 0) {
      this.channels.delete(wakeup.channel);
      const listen = this.listens.get(wakeup.channel);
      this.listens.delete(wakeup.channel);
      if (!client || !listen) return;
      await listen.catch(() => undefined);
      await client.query(`UNLISTEN ${pg.escapeIdentifier(wakeup.channel)}`).catch(() => undefined);
    }
  }

  /** Wakes every LogWakeup of `channel` in this process. */
  wakeHere(channel: string, payload: string | null): void {
    for (const wakeup of this.channels.get(channel) ?? []) wakeup.wake(payload);
  }

  /** One round trip on the listening connection; rejects if there is none or it changes meanwhile. */
  async roundTrip(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('not listening');
    await client.query('SELECT 1');
    if (this.client !== client) throw new Error('the listening connection changed');
  }

  async notify(wakeup: LogWakeup, payloads: string[]): Promise<void> {
    this.use(wakeup);
    const client = await this.openSender();
    await client.query({
      name: 'log_notify',
      text: 'SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p',
      values: [wakeup.channel, payloads],
    });
  }

  private connect(): Promise<pg.Client> {
    this.connecting ??= this.open().catch((error: unknown) => {
      this.connecting = null;
      throw error;
    });
    return this.connecting;
  }

  /** The sending connection; one that drops is opened again by the next NOTIFY. */
  private openSender(): Promise<pg.Client> {
    if (!this.sender) {
      const opening = (async () => {
        const client = new pg.Client({ connectionString: this.connectionString });
        client.on('error', () => {
          if (this.sender === opening) this.sender = null;
          void client.end().catch(() => undefined);
        });
        await this.connectFor(client);
        const pid = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        this.senderPid = pid.rows[0]?.pid ?? null;
        return client;
      })();
      opening.catch(() => {
        if (this.sender === opening) this.sender = null;
      });
      this.sender = opening;
    }
    return this.sender;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      // Our own NOTIFY: the listeners here were woken when it was announced.
      if (message.processId === this.senderPid) return;
      for (const line of (message.payload ?? '').split('\n'))
        this.wakeHere(message.channel, line || null);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await this.connectFor(client);
    this.client = client;
    return client;
  }

  /** Connects `client`, unless every user has left meanwhile: then it is ended, and this throws. */
  private async connectFor(client: pg.Client): Promise<void> {
    const generation = this.generation;
    try {
      await client.connect();
      if (this.generation !== generation) throw new Error('every wake-up has closed');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The connection dropped, and notifications may have been lost with it: listen again on every
   * channel, retrying while any LogWakeup is joined. Each channel's listeners are woken once its
   * LISTEN takes effect, so followers read what they may have missed.
   */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.connecting = null;
    this.listens.clear();
    void client.end().catch(() => undefined);
    for (const members of this.channels.values())
      for (const wakeup of members) wakeup.listened(false);
    this.relisten();
  }

  /** Listens again on every channel after a pause that doubles with each try that fails. */
  private relisten(): void {
    if (this.retry) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.channels.size === 0) return;
      Promise.all([...this.channels.keys()].map((channel) => this.listening(channel))).then(
        () => (this.retryMs = RETRY_MS),
        // A LISTEN that failed has scheduled the next try itself.
        () => undefined,
      );
    }, wait).unref();
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
