import { ApiError, errors, type StatusCause } from '@orchard/meta';
import { isWatchCacheError, type WatchCacheError } from '@orchard/watch-cache';
import { isUndecodableObjectError } from './object-store.js';

/** Upstream names at most this many unreadable objects in a failed list's causes, then one `TooMany`. */
export const maxCorruptListCauses = 100;

function causeMessage(key: string, cause: unknown): string {
  if (isUndecodableObjectError(cause)) return cause.message;
  return `failed to decode the object stored at ${key}: ${cause instanceof Error ? cause.message : String(cause)}`;
}

/**
 * The answer to a list that met unreadable objects (spec doc 1 §3, the corrupt-object case). With
 * `AllowUnsafeMalformedObjectDeletion` on, upstream's aggregated 500: reason `StorageReadError`,
 * `failed to read one or more <resource.group> from the storage`, one `UnexpectedServerResponse`
 * cause per key (field = the key), so the caller learns which objects to delete unsafely. With the
 * gate off: a 500 InternalError naming the first one (upstream: `unable to transform key "…"` for a
 * decryption failure).
 */
export function corruptListError(
  e: WatchCacheError,
  resource: { group: string; resource: string },
  gateOn: boolean,
): ApiError {
  const found = e.corrupt ?? [{ key: e.key ?? '', cause: e.cause }];
  if (!gateOn) {
    const first = found[0] as { key: string; cause: unknown };
    const c = first.cause;
    if (isUndecodableObjectError(c) && c.failure === 'untransformable')
      return errors.internal(`unable to transform key ${JSON.stringify(first.key)}: ${c.transformError}`);
    return errors.internal(causeMessage(first.key, c));
  }
  const causes: StatusCause[] = found.slice(0, maxCorruptListCauses).map((f) => ({
    reason: 'UnexpectedServerResponse',
    field: f.key,
    message: causeMessage(f.key, f.cause),
  }));
  if (found.length > maxCorruptListCauses)
    causes.push({ reason: 'TooMany', message: 'too many errors, the list is truncated' });
  const qualified = resource.group === '' ? resource.resource : `${resource.resource}.${resource.group}`;
  return new ApiError(500, 'StorageReadError', `failed to read one or more ${qualified} from the storage`, {
    group: resource.group,
    kind: resource.resource,
    name: 'list',
    causes,
  });
}

/**
 * With `AllowUnsafeMalformedObjectDeletion` off, upstream reports a decryption failure on a single
 * object as a bare 500 with the transformer's words (`Internal error occurred: no matching prefix
 * found`); the corrupt-object wording (`StorageError: corrupt object …`) comes with the gate. Returns
 * that answer for such an error (thrown directly or as the watch cache's `Corrupt`), else undefined.
 */
export function untransformableWithoutGate(e: unknown): ApiError | undefined {
  const cause = isWatchCacheError(e, 'Corrupt') ? e.cause : e;
  if (
    isUndecodableObjectError(cause) &&
    cause.failure === 'untransformable' &&
    cause.transformError !== undefined
  )
    return errors.internal(cause.transformError);
  return undefined;
}
