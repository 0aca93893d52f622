import { cpus } from 'node:os';
import pg from 'pg';
import { ownCpu, serverCpu, serverPolicy } from './cpu.ts';
import { betInput, load, startBenchProduct, twoFriends } from './http.ts';
import { printTable, type Cell } from './table.ts';

/** How long the POST load runs; BENCH_SECONDS=15 for steadier figures. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = 8;
/** Server processes whose CPU a bet costs besides the product's own. */
const SERVERS = ['postgres', 'redis-server'];

/** Counts the statements node-postgres sends while `counting` is on, by name or first words. */
function countStatements(): { counts: Map<string, number>; stop(): void } {
  const counts = new Map<string, number>();
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { name?: string; text?: string } | undefined;
    const statement = typeof first === 'string' ? first : (first?.name ?? first?.text ?? '');
    const key = statement.replace(/\s+/g, ' ').trim().slice(0, 60);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return query.apply(this, args);
  };
  return { counts, stop: () => (prototype.query = query) };
}

/**
 * What one `POST /api/bets` to a friend costs the machine: the product with every part running
 * (as `npm start` runs it) under the http bench's POST load, then per bet proposed, the CPU of
 * the product's process and of this machine's PostgreSQL and Redis processes (everything they did
 * meanwhile counts, so run it on a quiet machine), and the statements the product sent.
 */
export async function postCostBench(): Promise<void> {
  const { database, product, stop } = await startBenchProduct('wagers_bench_post');
  try {
    const { alice, bob } = await twoFriends(product.url);
    const body = JSON.stringify({ ...betInput, opponentId: bob.user.id });

    const probe = new pg.Client({ connectionString: database.url });
    await probe.connect();
    const policy = await serverPolicy(probe).finally(() => probe.end());
    const statements = countStatements();
    const [serversBefore, productBefore] = [await serverCpu(SERVERS), ownCpu()];
    const figures = await load({
      seconds: SECONDS,
      url: `${product.url}/api/bets`,
      method: 'POST',
      connections: CONNECTIONS,
      headers: { 'content-type': 'application/json', cookie: alice.client.cookie ?? '' },
      body,
    }).finally(() => statements.stop());
    const productMs = ownCpu() - productBefore;
    const serversAfter = await serverCpu(SERVERS);

    const bets = figures.requestsPerSecond * SECONDS;
    const perBet = (ms: number): Cell => ({ value: ms / bets, digits: 2 });
    printTable(
      `POST /api/bets to a friend, ${CONNECTIONS} connections for ${SECONDS} s, every part of ` +
        `the product running: ${Math.round(figures.requestsPerSecond).toLocaleString('en-US')} ` +
        `bets/s, ${figures.non2xx + figures.errors} failed; CPU ms per bet, ${cpus().length} CPUs, ` +
        `PostgreSQL under ${policy}`,
      ['process', 'CPU ms per bet'],
      [
        ['the product (Node.js)', perBet(productMs)],
        ...SERVERS.map((name): Cell[] => [
          name,
          perBet((serversAfter.get(name) ?? 0) - (serversBefore.get(name) ?? 0)),
        ]),
      ],
    );
    const sent = [...statements.counts].sort((a, b) => b[1] - a[1]);
    const all = sent.reduce((sum, [, n]) => sum + n, 0);
    printTable(
      `Statements the product sent per bet: ${(all / bets).toFixed(1)} in all (the first 60 characters, or the prepared statement's name)`,
      ['statement', 'per bet'],
      sent
        .slice(0, 15)
        .map(([statement, n]): Cell[] => [statement, { value: n / bets, digits: 2 }]),
    );
  } finally {
    await stop();
  }
}
