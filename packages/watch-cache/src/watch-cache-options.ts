import type { ApiObject } from '@orchard/meta';
import type { KeyValue } from '@orchard/store';

/**
 * What `createWatchCache` takes. Every field left out takes its value from `defaultWatchCacheOptions`
 * (the default is named in each field's doc).
 */
export interface WatchCacheOptions<T extends ApiObject = ApiObject> {
  /** Key prefix of the resource (every key the cache serves starts with it). */
  prefix: string;
  /** Decodes a stored value; must set `metadata.resourceVersion` to `String(kv.modRevision)`. */
  decode: (kv: KeyValue) => T;
  /**
   * The prefix the cache watches to learn the store's progress (default: `prefix`). Set it to the
   * store's root so the cache sees every revision (as etcd progress notifications would): then a
   * consistent read waits only for the cache to catch up instead of falling back to the store.
   */
  progressPrefix?: string;
  /** How long events stay servable (spec doc 1 §8 "Watch history retained": 5 minutes). Default 300 000. */
  windowMs?: number;
  /** At most this many events are kept in the window, whatever their age. Default 100 000. */
  maxEvents?: number;
  /**
   * The clock: milliseconds since the epoch, read when a change is applied and when the window is
   * evicted (default `Date.now`). It is the only time reading the cache makes; waits (the
   * `tooLargeWaitMs` deadline, polls, bookmarks) are timers, which vitest fake timers drive.
   */
  now?: () => number;
  /** How long a read or watch for a revision the store has not reached waits before `TooLargeResourceVersion` (upstream: 3 s). Default 3000. */
  tooLargeWaitMs?: number;
  /**
   * How long a consistent read waits for the cache to catch up before reading the store instead.
   * Default 250; only with a `progressPrefix` wider than `prefix` (without one the cache cannot tell
   * it is current, so a read that finds it behind goes to the store at once).
   */
  consistentReadWaitMs?: number;
  /** Events one watcher may have queued (unconsumed) before it is closed with `WatcherTooSlow`. Default 1024. */
  watcherBufferSize?: number;
  /** Interval of periodic BOOKMARK events to watchers that allow them (upstream: ~1 min); 0 disables the timer. Default 60 000. */
  bookmarkIntervalMs?: number;
  /** Domain of the `<domain>/initial-events-end` annotation (the flavor's). Default `orch.io`. */
  domain?: string;
  /** Builds a BOOKMARK object (default: `{metadata: {resourceVersion}}` plus the end annotation). */
  bookmarkObject?: (resourceVersion: string, initialEventsEnd: boolean) => T;
  /** Poll interval while waiting for the store to reach a revision, and the pause before a re-list. Default 20. */
  pollIntervalMs?: number;
  /**
   * Start the window at the store's compacted revision instead of now, replaying the history the store
   * still holds. A cache created after writes then still serves watches from their versions, as if it
   * had been running since the last compaction. Default false.
   */
  replayHistory?: boolean;
  /**
   * Treat versions the store has compacted away as gone even while the window still holds them: the
   * history served is what both the window and the store retain, so compacting the store forces 410
   * for watches and Exact reads below it, as clients of a cache-less server see. Default true.
   */
  honorStoreCompaction?: boolean;
  /**
   * Called when the cache's watch on the store fails or its re-list does (the error as the store threw
   * it). The cache then ends every watcher with a `Reset` whose `cause` is that error and re-lists,
   * retrying while the store keeps failing. Default: none (the failure still shows in `stats()`).
   */
  onStoreError?: (error: unknown) => void;
}

/** The defaults of `WatchCacheOptions` (frozen). */
export const defaultWatchCacheOptions = Object.freeze({
  windowMs: 5 * 60_000,
  maxEvents: 100_000,
  tooLargeWaitMs: 3000,
  consistentReadWaitMs: 250,
  watcherBufferSize: 1024,
  bookmarkIntervalMs: 60_000,
  domain: 'orch.io',
  pollIntervalMs: 20,
  replayHistory: false,
  honorStoreCompaction: true,
});

/** Options with every default applied (`bookmarkObject` and `onStoreError` stay optional). */
export type ResolvedWatchCacheOptions<T extends ApiObject> = Required<
  Omit<WatchCacheOptions<T>, 'bookmarkObject' | 'onStoreError'>
> &
  Pick<WatchCacheOptions<T>, 'bookmarkObject' | 'onStoreError'>;

/** Applies the defaults; a field given as `undefined` takes its default too. */
export function resolveWatchCacheOptions<T extends ApiObject>(
  options: WatchCacheOptions<T>,
): ResolvedWatchCacheOptions<T> {
  const d = defaultWatchCacheOptions;
  const progressPrefix = options.progressPrefix ?? options.prefix;
  return {
    prefix: options.prefix,
    decode: options.decode,
    progressPrefix,
    windowMs: options.windowMs ?? d.windowMs,
    maxEvents: options.maxEvents ?? d.maxEvents,
    now: options.now ?? Date.now,
    tooLargeWaitMs: options.tooLargeWaitMs ?? d.tooLargeWaitMs,
    // Without a wider progress watch the cache cannot tell it is current: read the store at once when behind.
    consistentReadWaitMs:
      progressPrefix !== options.prefix ? (options.consistentReadWaitMs ?? d.consistentReadWaitMs) : 0,
    watcherBufferSize: options.watcherBufferSize ?? d.watcherBufferSize,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? d.bookmarkIntervalMs,
    domain: options.domain ?? d.domain,
    bookmarkObject: options.bookmarkObject,
    pollIntervalMs: options.pollIntervalMs ?? d.pollIntervalMs,
    replayHistory: options.replayHistory ?? d.replayHistory,
    honorStoreCompaction: options.honorStoreCompaction ?? d.honorStoreCompaction,
    onStoreError: options.onStoreError,
  };
}
