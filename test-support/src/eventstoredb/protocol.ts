import { createRequire } from 'node:module';
import type { Any } from 'google-protobuf/google/protobuf/any_pb.js';
import type { Timestamp } from 'google-protobuf/google/protobuf/timestamp_pb.js';
import type * as SharedPb from '@eventstore/db-client/generated/shared_pb.js';
import type * as StatusPb from '@eventstore/db-client/generated/status_pb.js';
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
const streamsGrpc = require(`${generated}/streams_grpc_pb.js`) as typeof StreamsGrpc;
export const { StreamsService: streamsService, StreamsClient } = streamsGrpc;
export const serverFeatures = require(
  `${generated}/serverfeatures_pb.js`,
) as typeof ServerFeaturesPb;
const serverFeaturesGrpc = require(
  `${generated}/serverfeatures_grpc_pb.js`,
) as typeof ServerFeaturesGrpc;
export const { ServerFeaturesService: serverFeaturesService, ServerFeaturesClient } =
  serverFeaturesGrpc;

/** `google.rpc.Status` as EventStoreDB's status.proto defines it: one packed detail. */
export const rpc = require(`${generated}/status_pb.js`) as typeof StatusPb;
export const anyMessage = require('google-protobuf/google/protobuf/any_pb.js') as {
  Any: typeof Any;
};
export const timestamp = require('google-protobuf/google/protobuf/timestamp_pb.js') as {
  Timestamp: typeof Timestamp;
};

export type RpcStatus = StatusPb.Status;
export type ReadReq = StreamsPb.ReadReq;
export type ReadResp = StreamsPb.ReadResp;
export type AppendReq = StreamsPb.AppendReq;
export type AppendResp = StreamsPb.AppendResp;
export type BatchAppendReq = StreamsPb.BatchAppendReq;
export type BatchAppendResp = StreamsPb.BatchAppendResp;
