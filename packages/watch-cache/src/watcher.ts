import type { ApiObject } from '@orchard/meta';
import { WatchCacheError } from './errors.js';

/** An event as the cache hands it to one watcher (already filtered by that watcher's predicate). */
export type WatchCacheEvent<T extends ApiObject = ApiObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; object: T; revision: number }
  | { type: 'ERROR'; error: WatchCacheError; revision: number };

/** A change as the cache records it in its window (unfiltered). */
export interface CachedChange<T extends ApiObject = ApiObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  /** The new object; for DELETED the last state, with resourceVersion = the deletion revision. */
  object: T;
  /** The object before the change (undefined for ADDED). */
  prevObject: T | undefined;
  revision: number;
  /** `now()` when the cache applied the change (drives the time window). */
  time: number;
}

/**
 * One watch. Iterate it to receive events in revision order; the iteration ends when the watch is
 * closed (by `close()`, by the cache, or on overflow). After it ends, `closeReason` says why
 * (`undefined` = closed by the consumer or a timeout).
 */
export interface CacheWatcher<T extends ApiObject = ApiObject> extends AsyncIterable<WatchCacheEvent<T>> {
  /** The revision of the last event queued for this watcher (its resume point once consumed). */
  readonly position: number;
  /** Why the cache ended the watch, if it did. */
  readonly closeReason: WatchCacheError | undefined;
  /** Number of events queued and not yet consumed. */
  readonly buffered: number;
  close(): void;
}

type Resolver<T extends ApiObject> = (r: IteratorResult<WatchCacheEvent<T>>) => void;

/**
 * The per-watcher queue. The cache pushes; one consumer pulls. Pushing never blocks the cache: a
 * watcher whose queue exceeds `limit` is closed with `WatcherTooSlow` (the events it already has are
 * still delivered, so its position stays a valid resume point).
 */
export class WatcherQueue<T extends ApiObject> implements CacheWatcher<T> {
  readonly predicate: ((obj: T) => boolean) | undefined;
  readonly keyPrefix: string | undefined;
  readonly allowBookmarks: boolean;
  position: number;
  closeReason: WatchCacheError | undefined;
  /** While true (initial state being gathered) live events are held aside, not delivered. */
  private holding: boolean;
  private held: WatchCacheEvent<T>[] = [];
  private queue: (WatchCacheEvent<T> | undefined)[] = [];
  private head = 0;
  private waiter: Resolver<T> | undefined;
  private closed = false;
  /** Events the initial state contributed; they do not count against `limit`. */
  private allowance = 0;
  private readonly limit: number;
  private readonly onClose: (w: WatcherQueue<T>) => void;

  constructor(opts: {
    position: number;
    predicate: ((obj: T) => boolean) | undefined;
    keyPrefix?: string | undefined;
    allowBookmarks: boolean;
    limit: number;
    holding: boolean;
    onClose: (w: WatcherQueue<T>) => void;
  }) {
    this.position = opts.position;
    this.predicate = opts.predicate;
    this.keyPrefix = opts.keyPrefix;
    this.allowBookmarks = opts.allowBookmarks;
    this.limit = opts.limit;
    this.holding = opts.holding;
    this.onClose = opts.onClose;
  }

  get buffered(): number {
    return this.queue.length - this.head + this.held.length;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get isHolding(): boolean {
    return this.holding;
  }

  /** Offers a change; filters it by the predicate with the transition rules and queues the result. */
  offer(change: CachedChange<T>): void {
    if (this.closed || change.revision <= this.position) return;
    this.position = change.revision;
    const ev = this.convert(change);
    if (ev) this.push(ev);
  }

  /** Like `offer`, for changes replayed from the window at watch start: they do not count against the limit. */
  replay(change: CachedChange<T>): void {
    if (this.closed || change.revision <= this.position) return;
    this.position = change.revision;
    const ev = this.convert(change);
    if (!ev) return;
    this.allowance++;
    this.deliver(ev, true);
  }

  /** Upstream's cacheWatcher.convertToWatchEvent: objects that stop matching are DELETED, start matching ADDED. */
  private convert(c: CachedChange<T>): WatchCacheEvent<T> | undefined {
    if (this.keyPrefix !== undefined && !c.key.startsWith(this.keyPrefix)) return undefined;
    const p = this.predicate;
    if (!p) return { type: c.type, object: c.object, revision: c.revision };
    const cur = c.type !== 'DELETED' && p(c.object);
    const old = c.prevObject !== undefined && p(c.prevObject);
    if (c.type === 'DELETED')
      return old ? { type: 'DELETED', object: c.object, revision: c.revision } : undefined;
    if (cur && old) return { type: 'MODIFIED', object: c.object, revision: c.revision };
    if (cur) return { type: 'ADDED', object: c.object, revision: c.revision };
    if (old) {
      const prev = c.prevObject as T;
      const object = {
        ...prev,
        metadata: { ...prev.metadata, resourceVersion: String(c.revision) },
      } as T;
      return { type: 'DELETED', object, revision: c.revision };
    }
    return undefined;
  }

  /** Queues an event produced by the cache itself (bookmarks, errors). */
  push(ev: WatchCacheEvent<T>): void {
    if (this.closed) return;
    if (this.holding) {
      this.held.push(ev);
      return;
    }
    this.deliver(ev);
  }

  /** Ends the holding phase: queues the initial events, then whatever arrived meanwhile. */
  release(initial: WatchCacheEvent<T>[]): void {
    if (this.closed) return;
    this.holding = false;
    this.allowance += initial.length;
    for (const ev of initial) this.deliver(ev, true);
    const held = this.held;
    this.held = [];
    for (const ev of held) this.deliver(ev);
  }

  private deliver(ev: WatchCacheEvent<T>, initial = false): void {
    if (this.closed) return;
    const w = this.waiter;
    if (w && this.head === this.queue.length) {
      this.waiter = undefined;
      if (initial && this.allowance > 0) this.allowance--;
      w({ value: ev, done: false });
      return;
    }
    this.queue.push(ev);
    if (!initial && this.queue.length - this.head > this.limit + this.allowance) {
      this.end(
        new WatchCacheError(
          'WatcherTooSlow',
          `watcher fell behind by more than ${this.limit} events; resume from resourceVersion of the last event received`,
          { revision: this.position },
        ),
        true,
      );
    }
  }

  /** Closes the watcher; `reason` is kept in `closeReason`. With `drain`, queued events are still delivered. */
  end(reason: WatchCacheError | undefined, drain = false): void {
    if (this.closed) return;
    this.closed = true;
    if (reason) this.closeReason = reason;
    if (!drain) {
      this.queue = [];
      this.head = 0;
    }
    this.held = [];
    this.onClose(this);
    const w = this.waiter;
    if (w && this.head === this.queue.length) {
      this.waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  /** Closes the watch from the consumer side (no reason recorded). */
  close(): void {
    this.end(undefined);
  }

  private next(): Promise<IteratorResult<WatchCacheEvent<T>>> {
    if (this.head < this.queue.length) {
      const ev = this.queue[this.head] as WatchCacheEvent<T>;
      this.queue[this.head] = undefined;
      this.head++;
      if (this.allowance > 0) this.allowance--;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve({ value: ev, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchCacheEvent<T>> {
    return {
      next: () => this.next(),
      return: () => {
        this.end(undefined);
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
