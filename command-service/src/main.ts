import { openNotificationQueue } from '@wagers/notifier/queue';
import { queuedSignInMailer } from '@wagers/notifier/sign-in-mailer';
import { runMain } from '@wagers/platform/main';
import { hostService } from '@wagers/platform/service-host';
import { commandService } from './service.ts';

runMain('command-service', (config, logger) =>
  hostService({
    config,
    logger,
    migrations: [],
    parts: async (context) => {
      const { queue, part } = openNotificationQueue(context);
      return [part, await commandService(context, queuedSignInMailer(queue))];
    },
  }),
);
