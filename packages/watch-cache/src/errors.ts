import { hasBrand } from '@orchard/meta/internal';
/**
 * What the watch cache rejects with (or closes a watcher with). The server maps each code to a
 * Status; the cache knows nothing of HTTP.
 *
 * - `TooOldResourceVersion`: a watch or an `Exact` read asked for a revision older than the window
 *   (upstream answers 410 Expired, `too old resource version: <rv> (<oldest>)`).
 * - `TooLargeResourceVersion`: the requested revision did not become available within the wait
 *   (upstream answers 504 with `Retry-After` and `Too large resource version`).
 * - `WatcherTooSlow`: a watcher's buffer overflowed; it was closed. The client resumes from the last
 *   resourceVersion it received (it may then get `TooOldResourceVersion` and relist).
 * - `Reset`: the cache re-initialized from the store (its store watch failed or `restart()` was
 *   called); every watcher is ended with this and must relist (upstream: 410).
 * - `Corrupt`: a stored value could not be decoded.
 * - `Stopped`: the cache was stopped.
 */
export type WatchCacheErrorCode =
  | 'TooOldResourceVersion'
  | 'TooLargeResourceVersion'
  | 'WatcherTooSlow'
  | 'Reset'
  | 'Corrupt'
  | 'Stopped';

/**
 * The one error type the watch cache rejects reads with and closes watchers with; `code` says which failure
 * (see `WatchCacheErrorCode`) and the server maps it to a Status. Recognise it with `isWatchCacheError` (a
 * field check, so two copies of the package agree), not `instanceof`.
 */
export class WatchCacheError extends Error {
  readonly orchardWatchCacheError = true as const;
  readonly code: WatchCacheErrorCode;
  /** The revision the request asked for, when there was one. */
  readonly requested: number | undefined;
  /** For `TooOldResourceVersion`: the oldest revision still served; for `TooLargeResourceVersion`: the current one. */
  readonly revision: number | undefined;
  /** For `Corrupt`: the key that failed to decode. */
  readonly key: string | undefined;
  /** For `Corrupt` from a list: every key under the listed prefix that failed (at most `maxCorruptKeysReported`), with its cause. */
  readonly corrupt: readonly { readonly key: string; readonly cause: unknown }[] | undefined;

  constructor(
    code: WatchCacheErrorCode,
    message: string,
    info: {
      requested?: number;
      revision?: number;
      key?: string;
      cause?: unknown;
      corrupt?: readonly { key: string; cause: unknown }[];
    } = {},
  ) {
    super(message, info.cause === undefined ? undefined : { cause: info.cause });
    this.name = 'WatchCacheError';
    this.code = code;
    this.requested = info.requested;
    this.revision = info.revision;
    this.key = info.key;
    this.corrupt = info.corrupt;
  }
}

/** Recognises a WatchCacheError (optionally of one code) without relying on `instanceof` across copies. */
export function isWatchCacheError(e: unknown, code?: WatchCacheErrorCode): e is WatchCacheError {
  return (
    hasBrand(e, 'orchardWatchCacheError') && (code === undefined || (e as WatchCacheError).code === code)
  );
}
