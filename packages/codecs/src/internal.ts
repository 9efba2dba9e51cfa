/**
 * @orchard/codecs/internal — what the reference server shares with the codecs but a user of them does
 * not need: strict UTF-8 decoding of bodies and upstream's duplicate-field wording for YAML. Not
 * covered by semver; import `@orchard/codecs` instead.
 */

export { decodeUtf8 } from './json.js';
export { yamlDuplicateMessage } from './yaml.js';
