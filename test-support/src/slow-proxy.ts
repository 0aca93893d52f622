import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface SlowProxy {
  /** The same connection string, through the proxy. */
  url: string;
  /** How long the server's bytes are held before the client gets them, in ms (0 at first). */
  delayMs: number;
  /**
   * The server out of reach, as in a restart or a failover: every connection through the proxy
   * is cut and new ones are closed as they come, until `outage(false)`.
   */
  outage(down: boolean): void;
  stop(): Promise<void>;
}

/**
 * A TCP proxy in front of a PostgreSQL server that can hold what the server sends for a while,
 * as a slow network would, keeping its order, or cut the way to it. What the client sends goes
 * straight through.
 */
export async function startSlowProxy(databaseUrl: string): Promise<SlowProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let down = false;
  const proxy: SlowProxy = {
    url: '',
    delayMs: 0,
    outage(on) {
      down = on;
      if (on) for (const socket of sockets) socket.destroy();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((client) => {
    if (down) return void client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    // Each chunk leaves no sooner than the one before it, and delayMs after it arrived.
    let last = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      const due = Date.now() + proxy.delayMs;
      last = last.then(async () => {
        const wait = due - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (!client.destroyed) client.write(chunk);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  proxy.url = url.toString();
  return proxy;
}
