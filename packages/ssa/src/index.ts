/**
 * @orchard/ssa — server-side apply: field sets and FieldsV1, and the field manager that keeps
 * `metadata.managedFields` on every write (spec doc 1 §2.6, §2.7, §4.9). Pure: no Node built-ins.
 *
 * Layers, each importing only earlier ones: fieldpath → typed → merge → manager. Only the vocabulary
 * a caller needs is exported here; the walkers (`typed/`) and the updater (`merge/`) stay inside.
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
  ElementKind,
  formatPath,
  type KeyField,
  makePath,
  type Path,
  PathElement,
} from './fieldpath/path-element.js';
export {
  type ApplyConflict,
  ApplyConflictError,
  FieldManagerError,
  type FieldManagerErrorCode,
  isApplyConflict,
  isFieldManagerError,
} from './manager/errors.js';
export {
  type ApplyOptions,
  ancientChangesManager,
  apply,
  beforeFirstApplyManager,
  createFieldManager,
  defaultMaxUpdateManagers,
  type FieldManager,
  type FieldManagerResult,
  type FieldManagerWriteOptions,
  lastAppliedAnnotationKey,
  lastAppliedManager,
  objectFieldSet,
  update,
} from './manager/field-manager.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  type Managed,
  type ManagerIdentity,
  managerKey,
  parseManagerKey,
} from './manager/managed-fields.js';
export type { VersionConverter } from './merge/updater.js';
