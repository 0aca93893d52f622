import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { screenshot, viewports, type Viewport } from './browser.ts';
import type { AxeViolation, PageGlobals } from './page-globals.ts';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFindings {
  /** Serious and critical: these fail the test. */
  serious: string[];
  /** Moderate and minor: reported, not failed. */
  lesser: string[];
}

/** axe-core's findings on what the page shows now, one line each. */
export async function axeFindings(page: Page): Promise<AxeFindings> {
  // Evaluated over the debugging protocol, which the page's Content-Security-Policy does not
  // govern; a <script> tag with the source inline would be refused, as it should be.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const { axe } = globalThis as unknown as PageGlobals;
    if (!axe) throw new Error('axe-core did not load');
    return (await axe.run()).violations;
  });
  const line = (v: AxeViolation) =>
    `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`;
  const isSerious = (v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical';
  return {
    serious: violations.filter(isSerious).map(line),
    lesser: violations.filter((v) => !isSerious(v)).map(line),
  };
}

export async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeFindings(page)).serious;
}

/** Whether the page is wider than the window (a phone would have to scroll sideways). */
async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const w = globalThis as unknown as PageGlobals;
    return w.document.documentElement.scrollWidth > w.innerWidth + 1;
  });
}

/**
 * Walks the screens of a test: each is saved on desktop and phone widths and checked with axe at
 * both, and for sideways scrolling on the phone. Findings are collected so one run reports them all.
 */
export class ScreenAudit {
  readonly findings: string[] = [];
  readonly lesser = new Set<string>();

  /** `dialog`: a modal covers the window, so only the window is saved. */
  async capture(page: Page, name: string, options: { dialog?: boolean } = {}): Promise<void> {
    const original = page.viewportSize();
    for (const width of ['desktop', 'phone'] as const satisfies Viewport[]) {
      await page.setViewportSize(viewports[width]);
      await page.evaluate(
        () =>
          new Promise((resolve) =>
            (globalThis as unknown as PageGlobals).requestAnimationFrame(() => resolve(null)),
          ),
      );
      await screenshot(page, `${name}-${width}`, { fullPage: !options.dialog });
      const axe = await axeFindings(page);
      for (const finding of axe.serious) this.findings.push(`${name} (${width}): ${finding}`);
      for (const finding of axe.lesser) this.lesser.add(`${name}: ${finding}`);
      if (width === 'phone' && (await overflowsSideways(page))) {
        this.findings.push(`${name} (phone): the page is wider than 375 px`);
      }
    }
    if (original) await page.setViewportSize(original);
  }

  /** Prints the moderate and minor findings, which do not fail the run. */
  report(): void {
    if (this.lesser.size > 0)
      console.log(`axe, moderate and minor:\n${[...this.lesser].join('\n')}`);
  }
}
