/**
 * @orchard/codecs/protobuf — the Protobuf wire form of the built-in kinds (spec doc 1 §2.5):
 * envelope, per-kind messages with the upstream field numbers, lists, Status, watch frames.
 * Pure: runs in browsers and edge runtimes (protobufjs, no Node built-ins).
 */

export type { WireDecodeReason } from './errors.js';
export { isWireDecodeError, WireDecodeError } from './errors.js';
export {
  decodeOpenApiV2Protobuf,
  encodeOpenApiV2Protobuf,
  openApiV2ProtobufContentType,
  openApiV2ProtobufMediaType,
} from './openapi-v2.js';
export type { ProtoFile } from './proto/index.js';
export { protoFiles } from './proto/index.js';
export {
  assertProtobufPrefix,
  decodeProtobuf,
  decodeProtobufList,
  decodeProtobufWatchEvent,
  encodeProtobuf,
  encodeProtobufList,
  encodeProtobufWatchEvent,
  encodeProtobufWatchEventMessage,
  joinProtobufList,
  maxProtobufFrameBytes,
  ProtobufFrameReader,
  protobufListSection,
  protobufPrefix,
  protobufSupported,
} from './protobuf.js';
export { createProtobufCodec } from './protobuf-codec.js';
export type { ProtobufKind } from './registry.js';
export { protobufKinds, protobufMessageName } from './registry.js';
