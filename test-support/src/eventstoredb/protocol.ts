import { createRequire } from 'node:module';
import type * as SharedPb from '@eventstore/db-client/generated/shared_pb.js';
import type * as StreamsPb from '@eventstore/db-client/generated/streams_pb.js';
import type * as StreamsGrpc from '@eventstore/db-client/generated/streams_grpc_pb.js';
import type * as ServerFeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb.js';
import type * as ServerFeaturesGrpc from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';

/**
 * The message classes and service definitions the client library ships, generated from
 * EventStoreDB's own .proto files: the stand-in speaks exactly what the client sends and reads.
 * They are CommonJS modules whose exports ES module loaders cannot list, hence `require`.
 */
const require = createRequire(import.meta.url);
const generated = '@eventstore/db-client/generated';

export const shared = require(`${generated}/shared_pb.js`) as typeof SharedPb;
export const streams = require(`${generated}/streams_pb.js`) as typeof StreamsPb;
export const streamsService = (require(`${generated}/streams_grpc_pb.js`) as typeof StreamsGrpc)
  .StreamsService;
export const serverFeatures = require(
  `${generated}/serverfeatures_pb.js`,
) as typeof ServerFeaturesPb;
export const serverFeaturesService = (
  require(`${generated}/serverfeatures_grpc_pb.js`) as typeof ServerFeaturesGrpc
).ServerFeaturesService;

export type ReadReq = StreamsPb.ReadReq;
export type ReadResp = StreamsPb.ReadResp;
export type AppendReq = StreamsPb.AppendReq;
export type AppendResp = StreamsPb.AppendResp;
