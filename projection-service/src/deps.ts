import type { Pool } from 'pg';
import type { SessionStore } from '@wagers/platform/auth/sessions';
import type { Config } from '@wagers/platform/config';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { ProjectionWatcher } from '@wagers/platform/projections/watcher';

export interface QueryServiceDeps {
  config: Config;
  pool: Pool;
  /** The log, for what must not lag behind it: whether a caller holds the auditor role. */
  store: EventStore;
  watcher: ProjectionWatcher;
  sessions: SessionStore;
  logger: Logger;
}
