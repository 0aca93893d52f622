import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'web/dist/**', '.data/**'],
    // Timeouts catch a hang, not slowness: the machines the tests run on differ threefold in speed,
    // and a test that spawns command lines takes seconds for each on the slowest.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // Two cores: integration files each make their own database; two at a time keeps them honest.
    maxWorkers: 2,
    minWorkers: 1,
    reporters: ['default', './app/src/test-support/summary-reporter.ts'],
  },
});
