/**
 * The few browser globals the tests touch inside page.evaluate, typed here because the server
 * tsconfig has no DOM library. Use as `const w = globalThis as unknown as PageGlobals`.
 */
export interface PageGlobals {
  axe?: { run(): Promise<{ violations: AxeViolation[] }> };
  document: { documentElement: { scrollWidth: number } };
  innerWidth: number;
  localStorage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    clear(): void;
  };
  navigator: { clipboard: { readText(): Promise<string> } };
  requestAnimationFrame(callback: () => void): number;
  scrollTo(x: number, y: number): void;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}
