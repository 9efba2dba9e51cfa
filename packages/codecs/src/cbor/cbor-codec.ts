import type { Codec } from '../codec.js';
import {
  cborListSection,
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
    listSection: (_list, items, context) => cborListSection(items, context.chunkPool),
    joinList: (list, section) => joinCborList(list, section),
    stream: { mediaType: cborSeqMediaType, encodeEvent: (event) => encodeCborWatchEvent(event) },
  };
}
