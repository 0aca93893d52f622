import type { Pool } from 'pg';
import type { SessionStore } from '@wagers/platform/auth/sessions';
import type { Config } from '@wagers/platform/config';
import type { Logger } from '@wagers/platform/logger';
import type { ProjectionWatcher } from '@wagers/platform/projections/watcher';

export interface QueryServiceDeps {
  config: Config;
  pool: Pool;
  watcher: ProjectionWatcher;
  sessions: SessionStore;
  logger: Logger;
}
