import type { ApiObject } from '@orchard/meta';

/**
 * Which data a read wants (spec doc 1 §4.5 "Meanings"), with revisions already parsed:
 * - `MostRecent`: consistent: the cache first catches up with the store's current revision.
 * - `Any`: whatever the cache holds now.
 * - `NotOlderThan`: at least this revision (waits for it, then `TooLargeResourceVersion`).
 * - `Exact`: exactly this revision, rebuilt from the window (`TooOldResourceVersion` below it).
 */
export type ReadRevision =
  | { kind: 'MostRecent' }
  | { kind: 'Any' }
  | { kind: 'NotOlderThan'; revision: number }
  | { kind: 'Exact'; revision: number };

/** What a `list` reads: a revision, a key range and page size, a filter. */
export interface CacheListOptions<T extends ApiObject = ApiObject> {
  revision?: ReadRevision;
  /** Return keys >= startKey only. */
  startKey?: string;
  /** Only keys starting with this (a namespace within the resource). */
  keyPrefix?: string;
  /** At most this many (matching) items; 0 or unset = all. */
  limit?: number;
  predicate?: (obj: T) => boolean;
  /** For `Exact` below the window: read that revision from the store instead of failing (continue pages do). */
  storeFallback?: boolean;
}

/** One page of a list and where the next one starts. */
export interface CacheListResult<T extends ApiObject = ApiObject> {
  items: T[];
  /** The revision the list was read at. */
  revision: number;
  /** Keys after the last examined one at that revision (ignoring the predicate). */
  remaining: number;
  /** Where the next page starts, when keys remain. */
  nextKey: string | undefined;
  /** Whether it was served from the cache (false: read from the store). */
  fromCache: boolean;
}

/** The object at a key (undefined when absent) and the revision it was read at. */
export interface CacheGetResult<T extends ApiObject = ApiObject> {
  object: T | undefined;
  revision: number;
}

/** Where a watch starts and what it receives. */
export interface CacheWatchOptions<T extends ApiObject = ApiObject> {
  /**
   * Where the watch starts. `Exact`: changes after that revision only. The others: synthetic ADDED
   * events for the state at that read (when `initialEvents`), then changes after it.
   */
  start: ReadRevision;
  /** Send the state as ADDED events first (not with `Exact`). Default true for non-Exact starts. */
  initialEvents?: boolean;
  /** After the initial events, a BOOKMARK annotated `<domain>/initial-events-end: "true"`. */
  initialEventsEndBookmark?: boolean;
  /** Periodic BOOKMARK events. */
  allowBookmarks?: boolean;
  predicate?: (obj: T) => boolean;
  /** Only keys starting with this (a namespace within the resource). */
  keyPrefix?: string;
}
