import { runMain } from '@wagers/platform/main';
import { hostService } from '@wagers/platform/service-host';
import { readModelMigrations } from './migrations.ts';
import { projectionService } from './service.ts';

runMain('projection-service', (config, logger) =>
  hostService({
    config,
    logger,
    migrations: [readModelMigrations],
    parts: async function* (context) {
      yield await projectionService(context);
    },
  }),
);
