import { runMain } from '@wagers/platform/main';
import { hostService } from '@wagers/platform/service-host';
import { standaloneCommandParts, webDist } from './service.ts';

runMain('command-service', (config, logger) =>
  hostService({ config, logger, migrations: [], parts: standaloneCommandParts, webDist }),
);
