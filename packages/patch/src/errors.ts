import { hasBrand } from '@orchard/meta/internal';
/**
 * The one error class of @orchard/patch. It knows no HTTP; the server maps each code:
 * `Malformed` → 400 (the patch document itself is unusable, as upstream's decode errors),
 * `TestFailed` → 422 and `Unprocessable` → 422 (a well-formed patch that cannot apply to this object),
 * `TooManyOperations` → 422 (more JSON Patch operations than the limit).
 */
export type PatchErrorCode = 'Malformed' | 'TestFailed' | 'Unprocessable' | 'TooManyOperations';

/**
 * What the patch functions reject with: a code the server maps to a Status, and the index of the
 * failing JSON Patch operation.
 */
export class PatchError extends Error {
  /** Brand for `isPatchError`, which must work across duplicated copies of this package. */
  readonly orchardPatchError = true as const;
  readonly code: PatchErrorCode;
  /** Index of the failing JSON Patch operation, when there is one. */
  readonly operationIndex: number | undefined;

  constructor(code: PatchErrorCode, message: string, operationIndex?: number) {
    super(message);
    this.name = 'PatchError';
    this.code = code;
    this.operationIndex = operationIndex;
  }
}

/** Whether `e` is a `PatchError`; works across copies of this package. */
export function isPatchError(e: unknown): e is PatchError {
  return hasBrand(e, 'orchardPatchError');
}
