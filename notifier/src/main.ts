import { runMain } from '@wagers/platform/main';
import { hostService } from '@wagers/platform/service-host';
import { openNotificationQueue } from './queue.ts';
import { notifierService } from './service.ts';

runMain('notifier', (config, logger) =>
  hostService({
    config,
    logger,
    migrations: [],
    parts: function* (context) {
      const { queue, part } = openNotificationQueue(context);
      yield part;
      yield notifierService(context, queue);
    },
  }),
);
