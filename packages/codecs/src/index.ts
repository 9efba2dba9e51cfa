/**
 * @orchard/codecs — wire encodings of API objects and content negotiation. Pure: no Node built-ins.
 * JSON and YAML live here; Protobuf, CBOR and Table live behind subpath exports.
 */

export type { ByteChunks } from './chunks.js';
export {
  bodyLength,
  ChunkPool,
  chunksLength,
  isByteChunks,
  joinChunks,
  packChunks,
  packSection,
} from './chunks.js';
export type { Codec, CodecContext, CodecErrorCode, ListSection } from './codec.js';
export { CodecError, isCodecError } from './codec.js';
export { jsonCodec, parseJson } from './json.js';
export type { AcceptRange, MediaType } from './media-type.js';
export { essence, formatMediaType, mediaTypes, parseAccept, parseMediaType } from './media-type.js';
export type { Negotiated, NegotiateOptions, Offer } from './negotiate.js';
export { codecForContentType, contentTypeOf, negotiate } from './negotiate.js';
export type { YamlDuplicate } from './yaml.js';
export { parseYaml, parseYamlDocument, yamlCodec } from './yaml.js';
export type { YamlLimits } from './yaml-bounds.js';
export { checkYamlBounds, defaultYamlLimits } from './yaml-bounds.js';
