/**
 * @orchard/schema/internal — pieces the reference server and sibling packages share but a user of
 * structural schemas does not need: the building blocks of the built-in types' schemas, upstream's
 * field-validation message wording and the naming rules of published OpenAPI documents. Not covered
 * by semver; import `@orchard/schema` instead.
 */

export {
  builtinGroup,
  builtinTypes,
  containerSchema,
  labelSelectorSchema,
  objectMetaSchema,
  podSpecSchema,
  podTemplateSpecSchema,
  typeMetaProps,
} from './builtin/index.js';
export { duplicateFieldMessage, scanJsonDuplicates, unknownFieldMessage } from './duplicates.js';
export { formatValue } from './field-error.js';
export { contentHash, groupVersionPath, schemaName } from './publish.js';
export { isKnownFormat, isValidPattern, jsonTypeOf } from './validate.js';
