/** What a Store rejects with. The server maps each code to a Status; the store knows nothing of HTTP. */
export type StoreErrorCode =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Compacted'
  | 'FutureRevision'
  | 'Corrupt'
  | 'Unavailable';

/**
 * What a Store rejects with, with a code (`NotFound`, `Conflict`, `Compacted` …) the server maps to a
 * Status.
 */
export class StoreError extends Error {
  readonly orchardStoreError = true as const;
  readonly code: StoreErrorCode;
  readonly key: string | undefined;
  /** For `Compacted`: the compacted revision; for `FutureRevision`: the current revision. */
  readonly revision: number | undefined;

  constructor(code: StoreErrorCode, message: string, key?: string, revision?: number) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
    this.key = key;
    this.revision = revision;
  }
}

/** Whether `e` is a `StoreError` (of `code`, when given); works across copies of this package. */
export function isStoreError(e: unknown, code?: StoreErrorCode): e is StoreError {
  return (
    typeof e === 'object' &&
    e !== null &&
    (e as { orchardStoreError?: unknown }).orchardStoreError === true &&
    (code === undefined || (e as StoreError).code === code)
  );
}
