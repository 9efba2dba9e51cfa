import { type CodecErrorCode, isCodecError } from '@orchard/codecs';
import { ApiError, errors, isApiError, type QualifiedResource } from '@orchard/meta';
import { isPagerError, type PagerError, type PagerErrorCode } from '@orchard/pager';
import { isPatchError, type PatchError, type PatchErrorCode } from '@orchard/patch';
import { type FieldManagerErrorCode, isApplyConflict, isFieldManagerError } from '@orchard/ssa';
import { isStoreError, type StoreError, type StoreErrorCode } from '@orchard/store';
import { isWatchCacheError, type WatchCacheError, type WatchCacheErrorCode } from '@orchard/watch-cache';
import { isUndecodableObjectError } from './storage/object-store.js';

/** What an error is about, so store errors get upstream's messages (`configmaps "x" not found`). */
export interface ErrorTarget extends QualifiedResource {
  readonly name: string;
}

const noTarget: ErrorTarget = { group: '', resource: '', name: '' };

/** Every store error code mapped; a new code fails to compile until it is added here. */
const storeErrorTable: Record<StoreErrorCode, (e: StoreError, t: ErrorTarget) => ApiError> = {
  NotFound: (_e, t) => errors.notFound(t, t.name),
  AlreadyExists: (_e, t) => errors.alreadyExists(t, t.name),
  Conflict: (_e, t) =>
    errors.conflict(
      t,
      t.name,
      'the object has been modified; please apply your changes to the latest version and try again',
    ),
  Compacted: (e) => errors.expired(`too old resource version: ${e.message}`),
  FutureRevision: (e) => errors.tooLargeResourceVersion(e.message, String(e.revision ?? '')),
  Corrupt: (e) => errors.internal(e.message),
  Unavailable: (e) => errors.serviceUnavailable(e.message),
};

const codecErrorTable: Record<CodecErrorCode, (message: string) => ApiError> = {
  Malformed: (m) => errors.badRequest(m),
  Unsupported: (m) => new ApiError(415, 'UnsupportedMediaType', m),
  NotEncodable: (m) => new ApiError(406, 'NotAcceptable', m),
};

/**
 * Patch errors: a patch document that cannot be decoded is a 400; a well-formed patch that cannot
 * apply (failing `test`, missing path) is a 422, as upstream answers JSON Patch apply failures.
 */
const patchErrorTable: Record<PatchErrorCode, (e: PatchError, t: ErrorTarget) => ApiError> = {
  Malformed: (e) => errors.badRequest(e.message),
  TestFailed: (e, t) => unprocessablePatch(e, t),
  Unprocessable: (e, t) => unprocessablePatch(e, t),
  TooManyOperations: (e, t) => unprocessablePatch(e, t),
};

function unprocessablePatch(e: PatchError, t: ErrorTarget): ApiError {
  return new ApiError(422, 'Invalid', e.message, {
    ...(t.name ? { name: t.name } : {}),
    group: t.group,
    kind: t.resource,
    causes: [{ reason: 'FieldValueInvalid', message: e.message }],
  });
}

/** Every field-manager error code mapped (server-side apply, spec doc 1 §4.9). */
const fieldManagerErrorTable: Record<FieldManagerErrorCode, (message: string) => ApiError> = {
  ManagedFieldsInApply: (m) => errors.badRequest(m),
  InvalidObjectType: (m) => errors.badRequest(m),
  InvalidObject: (m) => errors.badRequest(m),
  InvalidManagedFields: (m) => errors.internal(m),
};

/**
 * Watch-cache errors (spec doc 1 §4.5–4.6, §7): a version older than the window is 410 Expired; one the
 * store did not reach in time is 504 with `Retry-After` and `Too large resource version`; a cache
 * re-initialization ends watches with 410 (clients relist).
 */
const watchCacheErrorTable: Record<WatchCacheErrorCode, (e: WatchCacheError) => ApiError> = {
  TooOldResourceVersion: (e) => errors.expired(e.message),
  TooLargeResourceVersion: (e) =>
    errors.tooLargeResourceVersion(String(e.requested ?? ''), String(e.revision ?? ''), 1),
  Reset: (e) => errors.expired(e.message),
  WatcherTooSlow: (e) => errors.serviceUnavailable(e.message),
  // The decoder's own words (for a decryption failure, upstream's corrupt-object message) when it has them.
  Corrupt: (e) => errors.internal(isUndecodableObjectError(e.cause) ? e.cause.message : e.message),
  Stopped: (e) => errors.serviceUnavailable(e.message),
};

/** A 410 Expired for a continue token, carrying upstream's fresh token in `metadata.continue`. */
class ExpiredContinueError extends ApiError {
  constructor(
    message: string,
    private readonly continueToken: string | undefined,
  ) {
    super(410, 'Expired', message);
  }
  override toStatus() {
    const s = super.toStatus();
    if (this.continueToken) s.metadata = { ...s.metadata, continue: this.continueToken };
    return s;
  }
}

/** Pager errors (spec doc 1 §4.5 Invalid cells and §4.7 tokens): 400, or 410 for an expired token. */
const pagerErrorTable: Record<PagerErrorCode, (e: PagerError) => ApiError> = {
  InvalidRequest: (e) => errors.badRequest(e.message),
  InvalidResourceVersion: (e) => errors.badRequest(e.message),
  InvalidContinue: (e) => errors.badRequest(e.message),
  Expired: (e) => new ExpiredContinueError(e.message, e.continue),
};

/** Logs server faults; replaced by the server's logger. */
export type ErrorLogger = (message: string, error: unknown) => void;

/**
 * The ONE function turning anything thrown while serving a request into an `ApiError`. Unknown
 * errors become a 500 whose message is kept and whose stack is logged, never sent.
 */
export function toApiError(e: unknown, target: ErrorTarget = noTarget, log?: ErrorLogger): ApiError {
  if (isApiError(e)) return e;
  if (isStoreError(e)) return storeErrorTable[e.code](e, target);
  if (isCodecError(e)) return codecErrorTable[e.code](e.message);
  // Apply conflicts: 409 Conflict, one FieldManagerConflict cause per field (spec doc 1 §7).
  if (isApplyConflict(e)) return new ApiError(409, 'Conflict', e.message, { causes: e.causes });
  if (isFieldManagerError(e)) return fieldManagerErrorTable[e.code](e.message);
  if (isWatchCacheError(e)) return watchCacheErrorTable[e.code](e);
  if (isPagerError(e)) return pagerErrorTable[e.code](e);
  if (isPatchError(e)) return patchErrorTable[e.code](e, target);
  if (isUndecodableObjectError(e)) {
    log?.('undecodable stored object', e);
    return errors.internal(e.message);
  }
  const message = e instanceof Error ? e.message : String(e);
  log?.('unexpected error while serving a request', e);
  return errors.internal(message);
}
