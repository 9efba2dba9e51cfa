/**
 * @orchard/watch-cache — a cache in front of any Store: the current objects plus a sliding window of
 * changes, serving get, list and watch with every resourceVersion semantic of the spec (doc 1
 * §4.5–4.6), bookmarks, `sendInitialEvents`, and fan-out to many watchers.
 */
export type {
  ReadRevision,
  WatchCacheOptions,
  CacheListOptions,
  CacheListResult,
  CacheGetResult,
  CacheWatchOptions,
  WatchCacheStats,
  WatchCache,
} from './watch-cache.js';
export { createWatchCache, defaultWatchCacheOptions } from './watch-cache.js';
export type { WatchCacheEvent, CachedChange, CacheWatcher } from './watcher.js';
export type { WatchCacheErrorCode } from './errors.js';
export { WatchCacheError, isWatchCacheError } from './errors.js';
