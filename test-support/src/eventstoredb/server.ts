import { Server, ServerCredentials, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { appendHandler } from './append.ts';
import { batchAppendHandler } from './batch-append.ts';
import { InMemoryLog } from './log.ts';
import { serverFeatures, serverFeaturesService, streamsService, type shared } from './protocol.ts';
import { readHandler } from './read.ts';

/** The server version the stand-in answers to, the one docker-compose.yml runs. */
const STAND_IN_VERSION = '24.10.0';

export interface EventStoreDbStandIn {
  /** Connection string for the client: `esdb://127.0.0.1:PORT?tls=false`. */
  url: string;
  /** Ends every subscription and closes the port. */
  stop(): Promise<void>;
}

export interface EventStoreDbStandInOptions {
  /**
   * Which append the server's feature list offers the client: `batch` (the default) lists
   * `BatchAppend`, as 24.10 does, and the client appends through it; `plain` leaves it out, as
   * servers before 21.10 did, and the client falls back to `Append`. Both are served either way.
   */
  appends?: 'batch' | 'plain';
}

type Empty = InstanceType<typeof shared.Empty>;
type SupportedMethods = InstanceType<typeof serverFeatures.SupportedMethods>;

const STREAMS = 'event_store.client.streams.streams';

/**
 * Lists the methods served, in lower case with their features, as the server's `ServerFeatures`
 * does. The client asks on connect and appends through `BatchAppend` only when it is listed.
 */
function supportedMethods(appends: 'batch' | 'plain') {
  const method = (service: string, name: string, ...features: string[]) =>
    new serverFeatures.SupportedMethod()
      .setServiceName(service)
      .setMethodName(name)
      .setFeaturesList(features);
  const methods = [
    method(STREAMS, 'read', 'position', 'events'),
    method(STREAMS, 'append'),
    ...(appends === 'batch' ? [method(STREAMS, 'batchappend', 'deadline_duration')] : []),
    method('event_store.client.server_features.serverfeatures', 'getsupportedmethods'),
  ];
  return (
    _call: ServerUnaryCall<Empty, SupportedMethods>,
    reply: sendUnaryData<SupportedMethods>,
  ) =>
    reply(
      null,
      new serverFeatures.SupportedMethods()
        .setEventStoreServerVersion(STAND_IN_VERSION)
        .setMethodsList(methods),
    );
}

/**
 * A single insecure EventStoreDB node in memory, speaking the gRPC protocol the client library
 * uses, on 127.0.0.1 and a free port. What it models and leaves out: docs/decisions/0009.
 */
export async function startEventStoreDbStandIn({
  appends = 'batch',
}: EventStoreDbStandInOptions = {}): Promise<EventStoreDbStandIn> {
  const log = new InMemoryLog();
  const live = new Set<() => void>();
  const server = new Server();
  server.addService(streamsService, {
    read: readHandler(log, live),
    append: appendHandler(log),
    batchAppend: batchAppendHandler(log),
  });
  server.addService(serverFeaturesService, { getSupportedMethods: supportedMethods(appends) });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    url: `esdb://127.0.0.1:${port}?tls=false`,
    async stop() {
      for (const end of [...live]) end();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
