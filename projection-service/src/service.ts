import { runProjector } from '@wagers/platform/projections/runner';
import { ProjectionWatcher } from '@wagers/platform/projections/watcher';
import type { HostContext, ServicePart } from '@wagers/platform/service-host';
import { queryRouter } from './app.ts';
import { buildApart } from './operator/build-apart.ts';
import { allProjectors } from './projectors.ts';

/** The read side: projectors that keep the read models, and the query API over them. */
export async function projectionService(context: HostContext): Promise<ServicePart> {
  const { config, logger, pool, store, databaseUrl } = context;
  const watcher = new ProjectionWatcher(pool, databaseUrl);
  await watcher.start();
  const apart = buildApart(config, databaseUrl, logger);
  const projectors = allProjectors.map((projector) =>
    runProjector(projector, {
      store,
      pool,
      connectionString: databaseUrl,
      logger,
      ...(apart && { buildApart: apart }),
    }),
  );
  return {
    name: 'projection service',
    routers: [queryRouter({ config, pool, store, watcher, logger, sessions: context.sessions })],
    async stop() {
      await Promise.all(projectors.map((projector) => projector.stop()));
      await watcher.close();
    },
  };
}
