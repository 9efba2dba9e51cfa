import { type ApiObject, initialEventsEndAnnotation } from '@orchard/meta';
import { revisionOf } from './object-state.js';
import type { CacheWatchOptions } from './read-options.js';
import type { WatchCacheEvent, WatcherQueue } from './watcher.js';

/** Builds the object of a BOOKMARK event at `resourceVersion`. */
export type BookmarkObject<T extends ApiObject> = (resourceVersion: string, initialEventsEnd: boolean) => T;

/**
 * The default BOOKMARK object: only `metadata.resourceVersion`, plus the
 * `<domain>/initial-events-end: "true"` annotation on the bookmark that ends a watch's initial events.
 */
export function defaultBookmarkObject<T extends ApiObject>(domain: string): BookmarkObject<T> {
  const annotation = initialEventsEndAnnotation(domain);
  return (rv, end) =>
    ({
      metadata: end
        ? { resourceVersion: rv, annotations: { [annotation]: 'true' } }
        : { resourceVersion: rv },
    }) as unknown as T;
}

/**
 * Shares one progress BOOKMARK object among every watcher bookmarked at the same version (a periodic
 * round bookmarks them all at once), so consumers that encode per object encode it once.
 */
export function sharedBookmarks<T extends ApiObject>(make: BookmarkObject<T>): BookmarkObject<T> {
  let last: { rv: string; object: T } | undefined;
  return (rv, end) => {
    if (end) return make(rv, true);
    if (last?.rv !== rv) last = { rv, object: make(rv, false) };
    return last.object;
  };
}

/**
 * Queues a progress BOOKMARK at `max(position, synced)` for a watcher that allows them and is live
 * (not gathering its initial state, not closed); the caller flushes pending changes first, so every
 * change up to the bookmark's version precedes it.
 */
export function sendBookmark<T extends ApiObject>(
  w: WatcherQueue<T>,
  synced: number,
  bookmarkObject: BookmarkObject<T>,
): void {
  if (!w.allowBookmarks || w.isHolding || w.isClosed) return;
  const rev = Math.max(w.position, synced);
  w.position = rev;
  w.push({ type: 'BOOKMARK', object: bookmarkObject(String(rev), false), revision: rev });
}

/**
 * The events that open a watch started from a state (`sendInitialEvents` / a non-Exact start): an
 * ADDED per object the watch selects, then, when asked, the BOOKMARK that ends the initial events.
 */
export function initialEvents<T extends ApiObject>(
  entries: Iterable<[string, T]>,
  rev: number,
  o: CacheWatchOptions<T>,
  bookmarkObject: BookmarkObject<T>,
): WatchCacheEvent<T>[] {
  const out: WatchCacheEvent<T>[] = [];
  const p = o.predicate;
  const kp = o.keyPrefix;
  for (const [k, e] of entries) {
    if (kp && !k.startsWith(kp)) continue;
    if (!p || p(e)) out.push({ type: 'ADDED', object: e, revision: revisionOf(e) });
  }
  if (o.initialEventsEndBookmark) {
    out.push({ type: 'BOOKMARK', object: bookmarkObject(String(rev), true), revision: rev });
  }
  return out;
}

/** Calls `tick` every `intervalMs` without keeping the process alive; none when `intervalMs` is 0. */
export function startBookmarkTimer(intervalMs: number, tick: () => void): { stop(): void } {
  if (intervalMs <= 0) return { stop() {} };
  const timer = setInterval(tick, intervalMs);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}

/**
 * Runs `each` on `items` a slice of `size` per event-loop turn (the first slice now): a periodic
 * bookmark round over 10,000 watchers writes 10,000 sockets, which in one turn would hold every
 * request behind it.
 */
export function inSlices<T>(items: readonly T[], size: number, each: (slice: readonly T[]) => void): void {
  let i = 0;
  const step = (): void => {
    each(items.slice(i, i + size));
    i += size;
    if (i < items.length) setImmediate(step);
  };
  if (items.length > 0) step();
}
