/**
 * @orchard/watch-cache — a cache in front of any Store: the current objects plus a sliding window of
 * changes, serving get, list and watch with every resourceVersion semantic of the spec (doc 1
 * §4.5–4.6), bookmarks, `sendInitialEvents`, and fan-out to many watchers.
 */

export type { WatchCacheErrorCode } from './errors.js';
export { isWatchCacheError, WatchCacheError } from './errors.js';
export type {
  CacheGetResult,
  CacheListOptions,
  CacheListResult,
  CacheWatchOptions,
  ReadRevision,
  WatchCache,
  WatchCacheOptions,
  WatchCacheStats,
} from './watch-cache.js';
export { createWatchCache, defaultWatchCacheOptions } from './watch-cache.js';
export type { CachedChange, CacheWatcher, WatchCacheEvent } from './watcher.js';
