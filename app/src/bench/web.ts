import { ensureWebBuilt } from '../build-web-if-needed.ts';
import { bundleReport } from './web-bundle.ts';
import { renderReport } from './web-render.ts';

/**
 * The web app as a visitor meets it: the production bundle's size (what the first page loads,
 * gzipped, and the lazy chunks) and the time to the dashboard's first render against a local server.
 */
export async function webBench(): Promise<void> {
  ensureWebBuilt();
  await bundleReport();
  await renderReport();
}
