import type { ApiObject } from '@orchard/meta';
import type { CachedChange } from './watcher.js';

/** How much history the window keeps (see `WatchCacheOptions.windowMs` / `maxEvents`). */
export interface EventWindowLimits {
  windowMs: number;
  maxEvents: number;
}

/**
 * The sliding window of changes: every change with revision > `oldest`, in revision order. Evicting
 * moves a head index instead of shifting the array (compacted once the dead part dominates), so
 * dropping old events costs nothing per event.
 */
export class EventWindow<T extends ApiObject> {
  private changes: CachedChange<T>[] = [];
  private head = 0;
  private oldestRevision = 0;

  constructor(private readonly limits: EventWindowLimits) {}

  /** The oldest revision a watch may start from: every change after it is still held. */
  get oldest(): number {
    return this.oldestRevision;
  }

  /** Number of changes held. */
  get size(): number {
    return this.changes.length - this.head;
  }

  /** Empties the window; it starts at `revision` (a fresh list). */
  reset(revision: number): void {
    this.changes = [];
    this.head = 0;
    this.oldestRevision = revision;
  }

  /** Appends a change (its revision is above every held one). */
  push(change: CachedChange<T>): void {
    this.changes.push(change);
  }

  /** Drops changes older than `windowMs` at `now`, and any beyond `maxEvents`. */
  evict(now: number): void {
    const cutoff = now - this.limits.windowMs;
    const changes = this.changes;
    let h = this.head;
    while (h < changes.length) {
      const c = changes[h] as CachedChange<T>;
      if (changes.length - h > this.limits.maxEvents || c.time < cutoff) {
        this.oldestRevision = c.revision;
        h++;
      } else break;
    }
    if (h === this.head) return;
    this.head = h;
    if (h > 4096 && h * 2 > changes.length) {
      this.changes = changes.slice(h);
      this.head = 0;
    }
  }

  /** Calls `fn` with every held change with revision > `rev`, oldest first. */
  forEachAfter(rev: number, fn: (change: CachedChange<T>) => void): void {
    const changes = this.changes;
    for (let i = this.firstAfter(rev); i < changes.length; i++) fn(changes[i] as CachedChange<T>);
  }

  /** Calls `fn` with every held change with revision > `rev`, newest first (to undo them). */
  forEachAfterNewestFirst(rev: number, fn: (change: CachedChange<T>) => void): void {
    const changes = this.changes;
    for (let i = changes.length - 1; i >= this.head; i--) {
      const c = changes[i] as CachedChange<T>;
      if (c.revision <= rev) break;
      fn(c);
    }
  }

  /** Index of the first held change with revision > rev. */
  private firstAfter(rev: number): number {
    const changes = this.changes;
    let lo = this.head;
    let hi = changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((changes[mid] as CachedChange<T>).revision <= rev) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
