import { eventStoreBench } from './event-store.ts';
import { liveLatencyBench } from './live-latency.ts';
import { rebuildBench } from './rebuild.ts';
import { httpBench } from './http.ts';
import { hashChainBench } from './hash-chain.ts';
import { personalDataBench } from './personal-data.ts';
import { postCostBench } from './post-cost.ts';
import { webBench } from './web.ts';

/**
 * `npm run bench [name...]`: each bench sets up what it measures on fresh resources, prints its
 * own table and cleans up. Add a bench by adding it here.
 */
const benches: Record<string, () => Promise<void>> = {
  'event-store': eventStoreBench,
  rebuild: rebuildBench,
  'live-latency': liveLatencyBench,
  http: httpBench,
  'post-cost': postCostBench,
  'hash-chain': hashChainBench,
  'personal-data': personalDataBench,
  web: webBench,
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in benches));
if (unknown.length > 0) {
  throw new Error(`Unknown bench ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}`);
}
for (const [name, run] of Object.entries(benches)) {
  if (asked.length === 0 || asked.includes(name)) await run();
}
