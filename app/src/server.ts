import { commandService, webDist } from '@wagers/command-service/service';
import { openNotificationQueue } from '@wagers/notifier/queue';
import { notifierService } from '@wagers/notifier/service';
import { queuedSignInMailer } from '@wagers/notifier/sign-in-mailer';
import type { Config } from '@wagers/platform/config';
import type { Logger } from '@wagers/platform/logger';
import type { Runtime } from '@wagers/platform/runtime';
import { hostService, type RunningHost } from '@wagers/platform/service-host';
import { readModelMigrations } from '@wagers/projection-service/migrations';
import { projectionService } from '@wagers/projection-service/service';

export type RunningWagers = RunningHost;

/**
 * The whole product in one process: command and query APIs, projectors, the notifier and the web
 * app on one port. Production runs the same parts as separate services (docker-compose.yml).
 */
export function startWagers(
  config: Config,
  logger: Logger,
  runtime?: Runtime,
): Promise<RunningWagers> {
  return hostService({
    config,
    logger,
    runtime,
    migrations: [readModelMigrations],
    webDist,
    parts: async function* (context) {
      const { queue, part } = openNotificationQueue(context);
      yield part;
      yield await commandService(context, queuedSignInMailer(queue));
      yield await projectionService(context);
      yield notifierService(context, queue);
    },
  });
}
