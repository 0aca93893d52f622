import { cpus, loadavg } from 'node:os';
import type { Browser, BrowserContext } from 'playwright-core';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { activeBet, propose } from '../e2e/support/bet-data.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import {
  apiPerson,
  befriendOverApi,
  browserFor,
  caughtUp,
  type ApiPerson,
} from '../e2e/support/people.ts';
import { printTable, type Cell } from './table.ts';
import { gzipTotal } from './web-bundle.ts';

/** Runs per figure; BENCH_WEB_RUNS=50 for steadier percentiles. */
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 20);
const BETS = 12;

/**
 * Records, against the navigation's start, when the dashboard's stats card enters the DOM (first
 * render) and when its data has arrived (bet cards or the empty state). A MutationObserver sees
 * the moment itself; polling from the test side would add its own delay.
 */
const markScript = `(() => {
  const marks = {};
  globalThis.__dashboardMarks = marks;
  const observer = new MutationObserver(() => {
    const now = performance.now();
    if (marks.shell === undefined && document.querySelector('[data-testid="stats-card"]')) marks.shell = now;
    if (marks.data === undefined && document.querySelector('[data-testid="bet-card"], [data-testid="bets-empty"]')) marks.data = now;
    if (marks.shell !== undefined && marks.data !== undefined) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

interface Marks {
  shell: number;
  data: number;
}

async function load(
  context: BrowserContext,
  reload: boolean,
  scripts?: Set<string>,
): Promise<Marks> {
  const page = context.pages()[0] ?? (await context.newPage());
  page.removeAllListeners('request');
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('.js')) scripts?.add(pathname);
  });
  if (reload) await page.reload({ waitUntil: 'commit' });
  else await page.goto('/', { waitUntil: 'commit' });
  // The page takes the marks itself; this only waits to read them. (Not `waitForFunction`: it
  // evaluates its predicate with `eval`, which the app's Content-Security-Policy refuses.)
  const deadline = performance.now() + 30_000;
  for (;;) {
    const marks = await page.evaluate<Partial<Marks> | undefined>('globalThis.__dashboardMarks');
    if (marks?.shell !== undefined && marks.data !== undefined) return marks as Marks;
    if (performance.now() > deadline) throw new Error('The dashboard showed no bets in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function seed(app: TestApp): Promise<ApiPerson> {
  const [ann, ben] = await Promise.all([
    apiPerson(app, { first: 'Ann', last: 'Archer' }),
    apiPerson(app, { first: 'Ben', last: 'Baker' }),
  ]);
  await befriendOverApi(ann, ben);
  for (let i = 0; i < BETS; i++) {
    const bet = { title: `Bench bet ${i + 1}`, wagerAmount: String(5 + i) };
    if (i % 2 === 0) await activeBet(ann, ben, bet);
    else await propose(ann, ben, bet);
  }
  await caughtUp(ann, ben);
  return ann;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measureRuns(run: () => Promise<Marks>): Promise<Marks[]> {
  await run(); // warm-up, outside the figures: the server's first request compiles its routes.
  const marks: Marks[] = [];
  for (let i = 0; i < RUNS; i++) marks.push(await run());
  return marks;
}

/** Time to the dashboard's first render and to its data, from a cold browser and on a reload. */
export async function renderReport(): Promise<void> {
  let app: TestApp | undefined;
  let browser: Browser | undefined;
  try {
    [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    const ann = await seed(app);
    const scripts = new Set<string>();
    const cold = await measureRuns(async () => {
      const { context } = await browserFor(browser!, app!, ann);
      await context.addInitScript(markScript);
      try {
        return await load(context, false, scripts);
      } finally {
        await context.close();
      }
    });
    const { context: warmContext } = await browserFor(browser, app, ann);
    await warmContext.addInitScript(markScript);
    await load(warmContext, false);
    const warm = await measureRuns(() => load(warmContext, true));

    const row = (label: string, marks: Marks[]): Cell[] => {
      const shell = marks.map((m) => m.shell);
      const data = marks.map((m) => m.data);
      const ms = (value: number): Cell => ({ value, digits: 0 });
      return [
        label,
        ms(percentile(shell, 50)),
        ms(percentile(shell, 95)),
        ms(percentile(data, 50)),
        ms(percentile(data, 95)),
      ];
    };
    const gzip = await gzipTotal([...scripts]);
    printTable(
      `Dashboard render against a local server, ms from navigation start, ${RUNS} runs each; ` +
        `headless Chromium, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(1)}; ` +
        `${BETS} bets; cold load fetches ${scripts.size} JS files, ${(gzip / 1024).toFixed(1)} kB gzip`,
      ['load', 'first render p50', 'first render p95', 'bets shown p50', 'bets shown p95'],
      [
        row('cold (new browser context, empty cache)', cold),
        row('warm (reload, cached assets)', warm),
      ],
    );
  } finally {
    await browser?.close();
    await app?.stop();
  }
}
