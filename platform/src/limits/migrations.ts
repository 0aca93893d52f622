import { fileURLToPath } from 'node:url';
import type { MigrationSet } from '../migrations.ts';

/** The rate-limit counters, migrated by every process that serves the API. */
export const limitMigrations: MigrationSet = {
  dir: fileURLToPath(new URL('./migrations', import.meta.url)),
  table: 'pgmigrations_limits',
};
