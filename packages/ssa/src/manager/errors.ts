import { hasBrand } from '@orchard/meta/internal';
import { formatPath } from '../fieldpath/path-element.js';
import { type Conflict, formatConflicts } from '../merge/conflicts.js';
import { printManager } from './managed-fields.js';

/** A conflict as reported to clients: the manager's printed form and the field path. */
export interface ApplyConflict {
  /** e.g. `"kubectl-client-side-apply" using v1`, or `"A"` for an applier. */
  readonly manager: string;
  /** e.g. `.data.color`. */
  readonly field: string;
}

/**
 * An apply changed fields other managers own, without `force` (spec doc 1 §4.9 item 3; HTTP 409
 * Conflict). `message` is upstream's exact text; `causes` are the Status causes.
 */
export class ApplyConflictError extends Error {
  readonly orchardApplyConflict = true as const;
  readonly code = 'Conflict' as const;
  readonly conflicts: readonly ApplyConflict[];

  constructor(conflicts: readonly Conflict[]) {
    super(formatApplyConflictMessage(conflicts));
    this.name = 'ApplyConflictError';
    this.conflicts = conflicts.map((c) => ({ manager: printManager(c.manager), field: formatPath(c.path) }));
  }

  /** `details.causes` of the 409 Status. */
  get causes(): { reason: 'FieldManagerConflict'; message: string; field: string }[] {
    return this.conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${c.manager}`,
      field: c.field,
    }));
  }
}

/** Whether `e` is an `ApplyConflictError`; works across copies of this package. */
export function isApplyConflict(e: unknown): e is ApplyConflictError {
  return hasBrand(e, 'orchardApplyConflict');
}

/**
 * `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.color`,
 * or for several: `Apply failed with 2 conflicts: conflicts with "A":\n- .a\n- .b`.
 */
export function formatApplyConflictMessage(conflicts: readonly Conflict[]): string {
  const n = conflicts.length;
  return `Apply failed with ${n} conflict${n === 1 ? '' : 's'}: ${formatConflicts(conflicts, printManager)}`;
}

/** Codes of `FieldManagerError`: every one is a client error (HTTP 400 Bad Request). */
export type FieldManagerErrorCode =
  /** An apply body set `metadata.managedFields`. */
  | 'ManagedFieldsInApply'
  /** The apply body's apiVersion/kind is not the resource's. */
  | 'InvalidObjectType'
  /** The object does not fit its schema where the merge needs it (list keys, duplicates). */
  | 'InvalidObject'
  /** Stored managedFields could not be decoded. */
  | 'InvalidManagedFields';

/** Any other field-manager failure, with a code union. */
export class FieldManagerError extends Error {
  readonly orchardFieldManagerError = true as const;
  constructor(
    readonly code: FieldManagerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FieldManagerError';
  }
}

/** Whether `e` is a `FieldManagerError`; works across copies of this package. */
export function isFieldManagerError(e: unknown): e is FieldManagerError {
  return hasBrand(e, 'orchardFieldManagerError');
}
