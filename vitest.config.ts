import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'web/dist/**', '.data/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: integration files each make their own database; two at a time keeps them honest.
    maxWorkers: 2,
    minWorkers: 1,
    reporters: ['default', './app/src/test-support/summary-reporter.ts'],
  },
});
