/**
 * @orchard/watch-cache — a cache in front of any Store: the current objects plus a sliding window of
 * changes, serving get, list and watch with every resourceVersion semantic of the spec (doc 1
 * §4.5–4.6), bookmarks, `sendInitialEvents`, and fan-out to many watchers.
 */

export { encodedOnce } from './encoded-bytes.js';
export type { WatchCacheErrorCode } from './errors.js';
export { isWatchCacheError, WatchCacheError } from './errors.js';
export type {
  CacheGetResult,
  CacheListOptions,
  CacheListResult,
  CacheWatchOptions,
  ReadRevision,
} from './read-options.js';
export type { WatchCache, WatchCacheStats } from './watch-cache.js';
export { createWatchCache } from './watch-cache.js';
export type { WatchCacheOptions } from './watch-cache-options.js';
export { defaultWatchCacheOptions } from './watch-cache-options.js';
export type { CachedChange, CacheWatcher, WatchCacheEvent } from './watcher.js';
