import { LogWakeup } from '@wagers/platform/event-store/wakeup';
import { BUILDS_CHANNEL } from '@wagers/platform/projections/projector';
import { runProjector } from '@wagers/platform/projections/runner';
import { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { queryRouter } from './app.ts';
import { allProjectors } from './projectors.ts';

/** The read side: projectors that keep the read models, and the query API over them. */
export async function projectionService(context: HostContext): Promise<ServicePart> {
  const { config, logger, pool, store, databaseUrl } = context;
  const watcher = new ProjectionWatcher(pool, databaseUrl);
  await watcher.start();
  // One listener for build changes (rebuilds, switches, skips) serves every projector.
  const buildsWakeup = new LogWakeup(databaseUrl, BUILDS_CHANNEL);
  const projectors = allProjectors.map((projector) =>
    runProjector(projector, { store, pool, connectionString: databaseUrl, logger, buildsWakeup }),
  );
  return {
    name: 'projection service',
    routers: [queryRouter({ config, pool, watcher, logger, sessions: context.sessions })],
    async stop() {
      await Promise.all(projectors.map((projector) => projector.stop()));
      await buildsWakeup.close();
      await watcher.close();
    },
  };
}
