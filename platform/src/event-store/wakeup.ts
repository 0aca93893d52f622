import pg from 'pg';

/**
 * One LISTEN connection shared by every follower in the process. If it drops it reconnects;
 * followers also poll slowly, so a notification lost in between only delays them.
 */
export class LogWakeup {
  private client: pg.Client | null = null;
  private readonly listeners = new Set<() => void>();
  private connecting: Promise<void> | null = null;
  private closed = false;

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

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', () => {
      for (const listener of this.listeners) listener();
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
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    // Anything appended while we were connecting is found by the follower's next read.
    for (const listener of this.listeners) listener();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await this.connecting?.catch(() => undefined);
    await (client ?? this.client)?.end().catch(() => undefined);
  }
}
