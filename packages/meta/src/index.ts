/**
 * @orchard/meta — the object model, errors, selectors and flavors shared by every Orchard package.
 * Pure: no Node built-ins, runs in browsers and edge runtimes.
 */

export type { FieldCause, GoSyntax } from './field-errors.js';
export { fieldErrors, goSyntax } from './field-errors.js';
export type {
  FieldRequirement,
  FieldSelectorOperator,
  Fields,
  ParsedFieldSelector,
} from './field-selector.js';
export {
  defaultSelectableFields,
  escapeFieldValue,
  everythingFieldSelector,
  fieldSelectorFromSet,
  formatFieldSelector,
  objectFields,
  parseFieldSelector,
  unescapeFieldValue,
  validateFieldSelector,
} from './field-selector.js';
export type { Flavor, FlavorName } from './flavor.js';
export { flavorByName, kubernetesFlavor, orchFlavor } from './flavor.js';
export type { GroupVersion, GroupVersionKind, GroupVersionResource } from './gvk.js';
export { formatApiVersion, formatGroupResource, formatGvk, parseApiVersion } from './gvk.js';
export type {
  LabelRequirement,
  LabelSelector,
  LabelSelectorOperator,
  LabelSelectorRequirement,
  LabelSelectorRequirementOperator,
  Labels,
  ParsedLabelSelector,
  ValidateLabelSelectorOptions,
} from './label-selector.js';
export {
  createLabelRequirement,
  everythingLabelSelector,
  formatLabelRequirement,
  formatLabelSelector,
  labelSelectorFromObject,
  labelSelectorFromSet,
  labelSelectorToObject,
  nothingLabelSelector,
  parseLabelSelector,
  validateLabelSelector,
} from './label-selector.js';
export type { NameValidator } from './names.js';
export {
  dns1123LabelMaxLength,
  dns1123SubdomainMaxLength,
  generateName,
  generateNameMaxLength,
  isCIdentifier,
  isConfigMapKey,
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isEnvVarName,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPathSegmentPrefix,
  isValidPortName,
  isValidPortNum,
  labelValueMaxLength,
  nameIsDns1035Label,
  nameIsDnsLabel,
  nameIsDnsSubdomain,
  nameIsPathSegment,
  newUid,
  qualifiedNameMaxLength,
  validateNamespaceName,
} from './names.js';
export type {
  ApiList,
  ApiObject,
  DeleteOptions,
  ListMeta,
  ManagedFieldsEntry,
  ObjectMeta,
  OwnerReference,
  StoredObject,
  TypeMeta,
  WatchEvent,
  WatchEventType,
} from './object.js';
export {
  ApiObjectSchema,
  DeleteOptionsSchema,
  initialEventsEndAnnotation,
  ListMetaSchema,
  listKindOf,
  ManagedFieldsEntrySchema,
  ObjectMetaSchema,
  OwnerReferenceSchema,
  TypeMetaSchema,
  WatchEventSchema,
  watchEventTypes,
} from './object.js';
export { patchMediaTypes } from './patch-types.js';
export type { QuantityErrorCode, QuantityFormat } from './quantity.js';
export {
  isQuantity,
  isQuantityError,
  parseQuantity,
  Quantity,
  QuantityError,
  quantityFromJson,
  quantityMaxDigits,
  tryParseQuantity,
} from './quantity.js';
export type {
  CauseType,
  QualifiedResource,
  Status,
  StatusCause,
  StatusDetails,
  StatusReason,
} from './status.js';
export { ApiError, errors, isApiError, StatusSchema, successStatus } from './status.js';
export {
  formatMicroTime,
  formatRfc3339,
  isRfc3339,
  isTimeParseError,
  nowMicroTime,
  nowRfc3339,
  parseRfc3339,
  TimeParseError,
} from './time.js';
export type { UserInfo } from './user-info.js';
export type { ValidateObjectMetaOptions } from './validate-object-meta.js';
export {
  fieldManagerMaxLength,
  finalizerDeleteDependents,
  finalizerOrphanDependents,
  maxSubresourceNameLength,
  totalAnnotationSizeLimitBytes,
  validateAnnotations,
  validateFieldManager,
  validateFinalizers,
  validateLabels,
  validateManagedFields,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validateOwnerReferences,
} from './validate-object-meta.js';
