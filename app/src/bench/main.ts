import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@wagers/platform/config';
import { startEmbeddedPostgres } from '@wagers/platform/embedded';
import { createLogger } from '@wagers/platform/logger';

/**
 * `npm run bench [name...]`: each bench sets up what it measures on fresh resources, prints its
 * own table and cleans up. Add a bench by adding it here. The benches make their databases on
 * the server `TEST_DATABASE_URL` names (the machine's PostgreSQL by default); with
 * `BENCH_POSTGRES=embedded`, on a PostgreSQL of their own started as `npm start` starts its own
 * (decision 31).
 */
const benches: Record<string, () => Promise<void>> = {
  'event-store': async () => (await import('./event-store.ts')).eventStoreBench(),
  rebuild: async () => (await import('./rebuild.ts')).rebuildBench(),
  'live-latency': async () => (await import('./live-latency.ts')).liveLatencyBench(),
  http: async () => (await import('./http.ts')).httpBench(),
  'post-cost': async () => (await import('./post-cost.ts')).postCostBench(),
  'hash-chain': async () => (await import('./hash-chain.ts')).hashChainBench(),
  'personal-data': async () => (await import('./personal-data.ts')).personalDataBench(),
  web: async () => (await import('./web.ts')).webBench(),
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in benches));
if (unknown.length > 0) {
  throw new Error(`Unknown bench ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}`);
}

const place = process.env.BENCH_POSTGRES ?? 'machine';
if (place !== 'machine' && place !== 'embedded') {
  throw new Error(`BENCH_POSTGRES is "machine" (the default) or "embedded", not "${place}"`);
}
const dataDir = place === 'embedded' ? await mkdtemp(path.join(tmpdir(), 'wagers-bench-')) : null;
// Started as `npm start` starts its own (decisions 31, 35).
const server = dataDir
  ? await startEmbeddedPostgres(dataDir, createLogger('warn'), {
      batch: loadConfig().APPEND_NICE === 0,
    })
  : null;
// Read by the test databases' module when it is first imported, below.
if (server) process.env.TEST_DATABASE_URL = server.url;
try {
  for (const [name, run] of Object.entries(benches)) {
    if (asked.length === 0 || asked.includes(name)) await run();
  }
} finally {
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
