/**
 * @orchard/meta — the object model, errors, selectors and flavors shared by every Orchard package.
 * Pure: no Node built-ins, runs in browsers and edge runtimes.
 */
export type { Flavor, FlavorName } from './flavor.js';
export { orchFlavor, kubernetesFlavor, flavorByName } from './flavor.js';
export type { GroupVersionKind, GroupVersionResource, GroupVersion } from './gvk.js';
export { parseApiVersion, formatApiVersion, formatGvk, formatGroupResource } from './gvk.js';
export type {
  ManagedFieldsEntry,
  OwnerReference,
  ObjectMeta,
  TypeMeta,
  ApiObject,
  StoredObject,
  ListMeta,
  ApiList,
  WatchEventType,
  WatchEvent,
  DeleteOptions,
} from './object.js';
export {
  ManagedFieldsEntrySchema,
  OwnerReferenceSchema,
  ObjectMetaSchema,
  TypeMetaSchema,
  ApiObjectSchema,
  ListMetaSchema,
  DeleteOptionsSchema,
  listKindOf,
  initialEventsEndAnnotation,
  deepCopy,
} from './object.js';
export type {
  Status,
  StatusReason,
  StatusCause,
  StatusDetails,
  CauseType,
  QualifiedResource,
} from './status.js';
export { ApiError, isApiError, errors, successStatus } from './status.js';
export type { NameValidator } from './names.js';
export {
  dns1123LabelMaxLength,
  dns1123SubdomainMaxLength,
  qualifiedNameMaxLength,
  labelValueMaxLength,
  maxLenError,
  emptyError,
  regexError,
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPathSegmentPrefix,
  nameIsDnsSubdomain,
  nameIsDnsLabel,
  nameIsPathSegment,
  validateNamespaceName,
  generateNameAlphabet,
  generateNameRandomLength,
  generateNameMaxLength,
  randomString,
  generateName,
  newUid,
} from './names.js';
export type { FieldCause } from './field-errors.js';
export { fieldErrors, formatBadValue, formatFieldCause, aggregateMessage } from './field-errors.js';
export type {
  LabelSelectorOperator,
  Labels,
  LabelRequirement,
  ParsedLabelSelector,
  LabelSelector,
  LabelSelectorRequirement,
  LabelSelectorRequirementOperator,
} from './label-selector.js';
export {
  parseLabelSelector,
  formatLabelSelector,
  formatLabelRequirement,
  createLabelRequirement,
  everythingLabelSelector,
  nothingLabelSelector,
  labelSelectorFromSet,
  labelSelectorFromObject,
  labelSelectorToObject,
  validateLabelSelector,
} from './label-selector.js';
export type { FieldSelectorOperator, FieldRequirement, Fields, ParsedFieldSelector } from './field-selector.js';
export {
  defaultSelectableFields,
  escapeFieldValue,
  unescapeFieldValue,
  everythingFieldSelector,
  parseFieldSelector,
  fieldSelectorFromSet,
  formatFieldSelector,
  validateFieldSelector,
  objectFields,
} from './field-selector.js';
export type { ValidateObjectMetaOptions } from './validate-object-meta.js';
export {
  totalAnnotationSizeLimitBytes,
  fieldManagerMaxLength,
  maxSubresourceNameLength,
  fieldImmutableErrorMsg,
  isNegativeErrorMsg,
  finalizerOrphanDependents,
  finalizerDeleteDependents,
  validateLabels,
  validateAnnotations,
  validateFinalizers,
  validateOwnerReferences,
  validateFieldManager,
  validateManagedFields,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from './validate-object-meta.js';
export type { QuantityFormat, QuantityErrorCode } from './quantity.js';
export {
  Quantity,
  QuantityError,
  isQuantity,
  isQuantityError,
  parseQuantity,
  tryParseQuantity,
  quantitySplitRegexp,
  quantityMaxDigits,
} from './quantity.js';
export type { Rfc3339Parts } from './time.js';
export {
  rfc3339Layout,
  formatRfc3339,
  nowRfc3339,
  formatMicroTime,
  nowMicroTime,
  parseRfc3339,
  parseRfc3339Parts,
  isRfc3339,
  TimeParseError,
  isTimeParseError,
} from './time.js';
