import { describe } from 'vitest';
import { eventStoreContractSuite } from './contract-suite.ts';
import { connectEventStoreDb } from './eventstoredb.ts';

/** The server docker-compose runs. */
const IMAGE = 'eventstore/eventstore:24.10';

interface Server {
  url: string;
  stop(): Promise<void>;
}

const configuredUrl = process.env.EVENTSTORE_URL;

async function dockerAnswers(): Promise<boolean> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startServer(): Promise<Server> {
  if (configuredUrl) return { url: configuredUrl, stop: () => Promise.resolve() };
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(IMAGE)
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
      EVENTSTORE_MEM_DB: 'true',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .withStartupTimeout(120_000)
    .start();
  return {
    url: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => {
      await container.stop();
    },
  };
}

const where = configuredUrl
  ? 'EVENTSTORE_URL'
  : (await dockerAnswers())
    ? `${IMAGE} in a container`
    : null;

describe.skipIf(where === null)(
  where
    ? `eventstoredb adapter on ${where}`
    : 'eventstoredb adapter (skipped: no EventStoreDB reachable: set EVENTSTORE_URL or run a Docker engine)',
  () => {
    eventStoreContractSuite('eventstoredb', async () => {
      const server = await startServer();
      const store = connectEventStoreDb(server.url);
      return {
        store,
        async dispose() {
          await store.close();
          await server.stop();
        },
      };
    });
  },
);
