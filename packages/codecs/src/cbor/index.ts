/**
 * @orchard/codecs/cbor — CBOR bodies (self-described tag + one data item) and
 * `application/cbor-seq` watch streams, via cbor-x, with a strict well-formedness check.
 */

export type { WireDecodeReason } from '../protobuf/errors.js';
export { isWireDecodeError, WireDecodeError } from '../protobuf/errors.js';
export type { CborDecodeOptions } from './cbor.js';
export {
  applyPatchCborMediaType,
  CborSeqReader,
  cborListSection,
  cborMediaType,
  cborSelfDescribedTag,
  cborSeqMediaType,
  decodeCbor,
  encodeCbor,
  encodeCborWatchEvent,
  joinCborList,
} from './cbor.js';
export { createCborCodec } from './cbor-codec.js';
export { maxCborNestingDepth, scanCborItem } from './scan.js';
