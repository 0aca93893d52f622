import { openNotificationQueue } from '@wagers/notifier/queue';
import { queuedSignInMailer } from '@wagers/notifier/sign-in-mailer';
import { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { commandRouter } from './app.ts';
import type { SignInMailer } from './deps.ts';
import { startProcessManagers } from './process-managers/start.ts';

/** The command side: every mutating /api call, the sign-in routes, and the process managers. */
export async function commandService(
  context: HostContext,
  signInMailer: SignInMailer,
): Promise<ServicePart> {
  const watcher = new ProjectionWatcher(context.pool, context.databaseUrl);
  await watcher.start();
  const managers = startProcessManagers({
    store: context.store,
    pool: context.pool,
    connectionString: context.databaseUrl,
    runtime: context.runtime,
    logger: context.logger,
  });
  return {
    name: 'command service',
    routers: [commandRouter({ ...context, signInMailer, watcher })],
    async stop() {
      await Promise.all(managers.map((manager) => manager.stop()));
      await watcher.close();
    },
  };
}

/**
 * What the command service's own process hosts (as `docker-compose.yml` runs it): the command
 * side, and the notification queue its sign-in mails go out through. No projector, no notifier.
 */
export async function standaloneCommandParts(context: HostContext): Promise<ServicePart[]> {
  const { queue, part } = openNotificationQueue(context);
  return [part, await commandService(context, queuedSignInMailer(queue))];
}
