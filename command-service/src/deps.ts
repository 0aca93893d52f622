import type { Pool } from 'pg';
import type { Config } from '@wagers/platform/config';
import type { SessionStore } from '@wagers/platform/auth/sessions';
import type { EventStore } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import type { Runtime } from '@wagers/platform/runtime';

/** Sends the sign-in email; the notifier implements it with a queued job. */
export interface SignInMailer {
  sendSignInLink(to: string, link: string): Promise<void>;
}

export interface CommandServiceDeps {
  config: Config;
  store: EventStore;
  pool: Pool;
  runtime: Runtime;
  logger: Logger;
  sessions: SessionStore;
  /** Follows the process managers' checkpoints, so a command waits for what its session set off. */
  watcher: ProjectionWatcher;
  signInMailer: SignInMailer;
  /** Absolute origin for links in messages, e.g. https://wagers.example (never from the Host header). */
  publicUrl: () => string;
}
