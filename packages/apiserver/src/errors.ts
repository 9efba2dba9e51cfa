import { type CodecErrorCode, isCodecError } from '@orchard/codecs';
import { ApiError, errors, isApiError, type QualifiedResource } from '@orchard/meta';
import { isStoreError, type StoreError, type StoreErrorCode } from '@orchard/store';
import { isUndecodableObjectError } from './storage/object-store.js';
import { isPatchError, type PatchError, type PatchErrorCode } from '@orchard/patch';

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
    errors.conflict(t, t.name, 'the object has been modified; please apply your changes to the latest version and try again'),
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
  if (isPatchError(e)) return patchErrorTable[e.code](e, target);
  if (isUndecodableObjectError(e)) {
    log?.('undecodable stored object', e);
    return errors.internal(e.message);
  }
  const message = e instanceof Error ? e.message : String(e);
  log?.('unexpected error while serving a request', e);
  return errors.internal(message);
}
