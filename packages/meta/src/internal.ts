/**
 * @orchard/meta/internal — helpers the other Orchard packages share but a user of the object model
 * does not need: hostile-input guards for decoded JSON, base64, upstream's message fragments and the
 * raw RFC 3339 parts. Not covered by semver; import `@orchard/meta` instead.
 */

export { fromBase64, fromBase64Url, toBase64, toBase64Url } from './base64.js';
export { hasBrand } from './brand.js';
export { configSchemaCauses, formatFieldPath } from './config-schema-causes.js';
export { exceedsDepth, maxNestingDepth } from './depth.js';
export { DurationParseError, formatGoDuration, isDurationParseError, parseGoDuration } from './duration.js';
export { aggregateMessage, formatBadValue, formatFieldCause } from './field-errors.js';
export { countJsonKeys, mayHoldDuplicateKeys } from './json-keys.js';
export { cloneJson, deepFreeze, isJsonObject, jsonEqual } from './json-value.js';
export {
  emptyError,
  generateNameAlphabet,
  generateNameRandomLength,
  maxLenError,
  randomString,
  regexError,
} from './names.js';
export { getOwn, setOwn } from './own-property.js';
export { quantitySplitRegexp } from './quantity.js';
export type { Rfc3339Parts } from './time.js';
export { formatRfc3339Parts, parseRfc3339Parts, rfc3339Layout } from './time.js';
export { fieldImmutableErrorMsg, isNegativeErrorMsg } from './validate-object-meta.js';
