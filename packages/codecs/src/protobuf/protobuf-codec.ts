import type { ApiObject, Flavor, WatchEvent } from '@orchard/meta';
import type { Codec } from '../codec.js';
import {
  decodeProtobuf,
  encodeProtobuf,
  encodeProtobufWatchEvent,
  joinProtobufList,
  protobufListSection,
} from './protobuf.js';

/**
 * The Protobuf `Codec` for a flavor (`application/vnd.<product>.protobuf`). Watch responses use
 * `<media type>;stream=watch`, as upstream. The server offers it only for kinds where
 * `protobufSupported` is true.
 */
export function createProtobufCodec(flavor: Flavor): Codec {
  return {
    mediaType: flavor.protobufMediaType,
    binary: true,
    decode: (body, context) => decodeProtobuf(body, context.flavor),
    encode: (value, context) => encodeProtobuf(value as ApiObject, context.flavor),
    listSection: (list, items, context) =>
      protobufListSection(list as ApiObject, items, context.flavor, context.chunkPool),
    joinList: (list, section, context) => joinProtobufList(list as ApiObject, section, context.flavor),
    stream: {
      mediaType: `${flavor.protobufMediaType};stream=watch`,
      encodeEvent: (event, context) => encodeProtobufWatchEvent(event as WatchEvent, context.flavor),
    },
  };
}
