/**
 * @orchard/ssa — server-side apply: field sets and FieldsV1, a schema-driven typed merge, and
 * the field manager that keeps `metadata.managedFields` on every write (spec doc 1 §2.6, §2.7,
 * §4.9). Pure: no Node built-ins.
 *
 * Layers, each importing only earlier ones: fieldpath → typed → merge → manager.
 */
export { FieldSet } from './fieldpath/field-set.js';
export {
  decodeFieldsV1,
  encodeFieldsV1,
  type FieldsV1,
  FieldsV1Error,
  fromFieldsV1,
  toFieldsV1,
} from './fieldpath/fields-v1.js';
export {
  comparePathElements,
  ElementKind,
  formatPath,
  type KeyField,
  makePath,
  type Path,
  PathElement,
} from './fieldpath/path-element.js';
export { compareValues } from './fieldpath/value.js';
export {
  type ApplyConflict,
  ApplyConflictError,
  FieldManagerError,
  type FieldManagerErrorCode,
  formatApplyConflictMessage,
  isApplyConflict,
  isFieldManagerError,
} from './manager/errors.js';
export {
  ANCIENT_CHANGES_MANAGER,
  type ApplyOptions,
  apply,
  BEFORE_FIRST_APPLY_MANAGER,
  createFieldManager,
  DEFAULT_MAX_UPDATE_MANAGERS,
  type FieldManager,
  type FieldManagerResult,
  type FieldManagerWriteOptions,
  LAST_APPLIED_ANNOTATION,
  LAST_APPLIED_MANAGER,
  objectFieldSet,
  update,
} from './manager/field-manager.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  type Managed,
  type ManagerIdentity,
  managerKey,
  parseManagerKey,
  printManager,
  SERVER_SET_FIELDS,
} from './manager/managed-fields.js';
export { type Conflict, formatConflicts, isMergeConflicts, MergeConflicts } from './merge/conflicts.js';
export {
  applyFields,
  type ManagedSets,
  type UpdaterOptions,
  type UpdaterResult,
  updateFields,
  type VersionConverter,
  type VersionedSet,
} from './merge/updater.js';
export {
  type Atom,
  atomOf,
  DEDUCED,
  type ListAtom,
  type MapAtom,
  resourceAtomOf,
  TypedValueError,
  UNTYPED_ATOMIC,
} from './typed/atom.js';
export { type Comparison, compare, isSame } from './typed/compare.js';
export { merge } from './typed/merge.js';
export { ensureNamedFieldsAreMembers, reconcileFieldSet } from './typed/reconcile.js';
export { removeItems } from './typed/remove.js';
export { toFieldSet } from './typed/to-field-set.js';
