import type { Codec } from '../codec.js';
import {
  cborMediaType,
  cborSeqMediaType,
  decodeCbor,
  encodeCbor,
  encodeCborWatchEvent,
  joinCborList,
} from './cbor.js';

/**
 * The CBOR `Codec` (`application/cbor`; watches as `application/cbor-seq`). Offering it is the
 * server's decision: upstream serves CBOR only with the gate `CBORServingAndStorage` (alpha,
 * default off), for built-in and custom resources alike.
 */
export function createCborCodec(): Codec {
  return {
    mediaType: cborMediaType,
    binary: true,
    decode: (body) => decodeCbor(body),
    encode: (value) => encodeCbor(value),
    joinList: (list, items, context) => joinCborList(list, items, context.chunkPool),
    stream: { mediaType: cborSeqMediaType, encodeEvent: (event) => encodeCborWatchEvent(event) },
  };
}
