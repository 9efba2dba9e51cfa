/**
 * @orchard/codecs — wire encodings of API objects and content negotiation. Pure: no Node built-ins.
 * JSON and YAML live here; Protobuf, CBOR and Table live behind subpath exports.
 */
export type { MediaType, AcceptRange } from './media-type.js';
export { mediaTypes, parseMediaType, parseAccept, formatMediaType, essence } from './media-type.js';
export type { Codec, CodecContext, CodecErrorCode } from './codec.js';
export { CodecError, isCodecError } from './codec.js';
export { jsonCodec, parseJson, decodeUtf8 } from './json.js';
export { yamlCodec, parseYaml } from './yaml.js';
export type { Offer, Negotiated, NegotiateOptions } from './negotiate.js';
export { negotiate, contentTypeOf, codecForContentType } from './negotiate.js';
