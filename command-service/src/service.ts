import { fileURLToPath } from 'node:url';
import { openNotificationQueue } from '@wagers/notifier/queue';
import { queuedSignInMailer } from '@wagers/notifier/sign-in-mailer';
import { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { commandRouter } from './app.ts';
import { createAvatarStore } from './avatar/create-store.ts';
import type { SignInMailer } from './deps.ts';
import { startProcessManagers } from './process-managers/start.ts';

/** The command side: every mutating /api call, the sign-in routes, and the process managers. */
export async function commandService(
  context: HostContext,
  signInMailer: SignInMailer,
): Promise<ServicePart> {
  // One store for the routes and the erasure: a local store signs its upload links with a secret
  // of its own when none is configured. Its folder is checked first, before anything is started.
  const avatars = await createAvatarStore(context);
  const watcher = new ProjectionWatcher(context.pool, context.databaseUrl);
  await watcher.start();
  const managers = startProcessManagers({
    store: context.store,
    pool: context.pool,
    connectionString: context.databaseUrl,
    runtime: context.runtime,
    logger: context.logger,
    avatars: avatars.store,
  });
  return {
    name: 'command service',
    routers: [commandRouter({ ...context, signInMailer, watcher }, avatars)],
    async stop() {
      await Promise.all(managers.map((manager) => manager.stop()));
      await watcher.close();
    },
  };
}

/**
 * The web app's built files. The command service's own process serves them in production (the
 * proxy of deploy/Caddyfile sends it every page), as the one process of `npm start` does: with
 * the API's security headers and the page's configured mailboxes.
 */
export const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * What the command service's own process hosts (as `docker-compose.yml` runs it): the command
 * side, and the notification queue its sign-in mails go out through. No projector, no notifier.
 */
export async function* standaloneCommandParts(context: HostContext): AsyncIterable<ServicePart> {
  const { queue, part } = openNotificationQueue(context);
  yield part;
  yield await commandService(context, queuedSignInMailer(queue));
}
