import { fileURLToPath } from 'node:url';
import type { MigrationSet } from '@wagers/platform/migrations';

/** Read-model tables, owned by the projectors in this service. */
export const readModelMigrations: MigrationSet = {
  dir: fileURLToPath(new URL('../migrations', import.meta.url)),
  table: 'pgmigrations_read_models',
};
