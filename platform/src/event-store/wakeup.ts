import pg from 'pg';

/**
 * One LISTEN connection shared by every follower in the process. If it drops it reconnects;
 * followers also poll slowly, so a notification lost in between only delays them.
 *
 * Writers in the process `announce()` their commits: followers here are woken at once, in memory,
 * and other processes by a NOTIFY sent on this same connection. NOTIFYs are coalesced, one in
 * flight at a time, so a burst of appends costs one or two round trips, not one per append.
 */
export class LogWakeup {
  private client: pg.Client | null = null;
  private backendPid: number | null = null;
  private readonly listeners = new Set<() => void>();
  private connecting: Promise<void> | null = null;
  private closed = false;
  private notifying: Promise<void> | null = null;
  private notifyAgain = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
  ) {}

  onWake(listener: () => void): () => void {
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

  /** Says that something was committed: wakes this process's followers and, soon, everyone's. */
  announce(): void {
    this.wakeAll();
    this.notifySoon();
  }

  private notifySoon(): void {
    if (this.closed) return;
    if (this.notifying) {
      // The NOTIFY in flight may have left before this commit: send one more after it.
      this.notifyAgain = true;
      return;
    }
    this.notifying = this.notify().finally(() => {
      this.notifying = null;
      if (this.notifyAgain) {
        this.notifyAgain = false;
        this.notifySoon();
      }
    });
  }

  private async notify(): Promise<void> {
    try {
      await this.ready();
      await this.client?.query('SELECT pg_notify($1, $2)', [this.channel, '']);
    } catch {
      // Followers elsewhere find the events by their safety-net poll.
    }
  }

  private wakeAll(): void {
    for (const listener of this.listeners) listener();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      // Our own NOTIFY: the listeners here were woken when it was announced.
      if (message.processId !== this.backendPid) this.wakeAll();
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
    this.closed = true;
    const client = this.client;
    this.client = null;
    await this.connecting?.catch(() => undefined);
    await (client ?? this.client)?.end().catch(() => undefined);
  }
}
