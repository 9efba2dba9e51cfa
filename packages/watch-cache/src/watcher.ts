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
  /**
   * Every queued event at once (waits while none is queued); `undefined` once the watch has ended.
   * Cheaper than iterating one by one when many events arrive together. Do not mix with iteration.
   */
  nextBatch(): Promise<WatchCacheEvent<T>[] | undefined>;
  /**
   * Push mode: `onEvents` is called (synchronously, once per burst) with the events, and `onEnd` once
   * when the watch ends. The cheapest way to consume a watch (no promise per event or per wake);
   * the listener must not block. Replaces iteration; events already queued are delivered at once.
   * The array may be shared with other watchers of the same burst: read it, do not keep or change it.
   */
  listen(onEvents: (events: readonly WatchCacheEvent<T>[]) => void, onEnd: () => void): void;
  close(): void;
}

/** Whether a fan-out is offering changes right now (the cache's watcher set owns it). */
export interface FanOutState {
  readonly running: boolean;
}

type Waiter<T extends ApiObject> =
  | { batch: false; resolve: (r: IteratorResult<WatchCacheEvent<T>>) => void }
  | { batch: true; resolve: (r: WatchCacheEvent<T>[] | undefined) => void };

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
  private waiter: Waiter<T> | undefined;
  private wakeScheduled = false;
  private listener:
    | { onEvents: (events: readonly WatchCacheEvent<T>[]) => void; onEnd: () => void }
    | undefined;
  private endNotified = false;
  private closed = false;
  /** Events the initial state contributed; they do not count against `limit`. */
  private allowance = 0;
  private readonly limit: number;
  private readonly onClose: (w: WatcherQueue<T>) => void;
  private readonly fanOut: FanOutState;

  constructor(opts: {
    position: number;
    predicate: ((obj: T) => boolean) | undefined;
    keyPrefix?: string | undefined;
    allowBookmarks: boolean;
    limit: number;
    holding: boolean;
    onClose: (w: WatcherQueue<T>) => void;
    /** The owner's fan-out flag: while it runs, push-mode listeners are drained by the owner. */
    fanOut: FanOutState;
  }) {
    this.position = opts.position;
    this.predicate = opts.predicate;
    this.keyPrefix = opts.keyPrefix;
    this.allowBookmarks = opts.allowBookmarks;
    this.limit = opts.limit;
    this.holding = opts.holding;
    this.onClose = opts.onClose;
    this.fanOut = opts.fanOut;
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
  offer(change: CachedChange<T>, plain?: WatchCacheEvent<T>, prefixMatched = false): void {
    if (this.closed || change.revision <= this.position) return;
    this.position = change.revision;
    const ev =
      plain && !this.predicate && (prefixMatched || this.keyPrefix === undefined)
        ? plain
        : this.convert(change);
    if (ev) this.push(ev);
  }

  /**
   * Offers one fan-out's changes (in revision order; `plain[i]` is `batch[i]` unfiltered, one array
   * shared by every watcher) and drains a push-mode listener. A listener that wants every change and
   * has nothing queued is handed `plain` itself: no queue, no array and no event object per watcher,
   * so a change fanned out to 10,000 watchers allocates nothing per watcher (that garbage, kept alive
   * across a fan-out, was promoted to the old generation and made paced fan-out collect-bound).
   */
  receive(
    batch: readonly CachedChange<T>[],
    plain: readonly WatchCacheEvent<T>[],
    /** Every change of `batch` is known to be under this watcher's key prefix (the prefix index found it). */
    prefixMatched = false,
  ): void {
    if (this.closed) return;
    const l = this.listener;
    const first = batch[0];
    if (
      l &&
      first &&
      first.revision > this.position &&
      !this.holding &&
      !this.predicate &&
      (prefixMatched || this.keyPrefix === undefined) &&
      this.head === this.queue.length
    ) {
      this.position = (batch[batch.length - 1] as CachedChange<T>).revision;
      l.onEvents(plain);
    } else {
      for (let i = 0; i < batch.length; i++) this.offer(batch[i] as CachedChange<T>, plain[i], prefixMatched);
    }
    this.drainListener();
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
    this.queue.push(ev);
    this.scheduleWake();
    // A push-mode listener drains synchronously; its back-pressure is the consumer's (e.g. socket buffer).
    if (!initial && !this.listener && this.queue.length - this.head > this.limit + this.allowance) {
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
    this.scheduleWake();
  }

  /**
   * Wakes the consumer once per synchronous burst of deliveries (a microtask later), so a change
   * fanned out to many watchers costs one wake-up each, and a batch consumer gets the whole burst.
   */
  private scheduleWake(): void {
    if (this.wakeScheduled || (!this.waiter && !this.listener)) return;
    // During a fan-out the cache drains listeners itself right after offering (no microtask).
    if (this.listener && this.fanOut.running) return;
    this.wakeScheduled = true;
    queueMicrotask(this.wake);
  }

  private readonly wake = (): void => {
    this.wakeScheduled = false;
    const l = this.listener;
    if (l) {
      if (this.head < this.queue.length) l.onEvents(this.takeAll());
      if (this.closed && !this.endNotified) {
        this.endNotified = true;
        l.onEnd();
      }
      return;
    }
    const w = this.waiter;
    if (!w) return;
    if (this.head < this.queue.length) {
      this.waiter = undefined;
      if (w.batch) w.resolve(this.takeAll());
      else w.resolve({ value: this.takeOne(), done: false });
    } else if (this.closed) {
      this.waiter = undefined;
      if (w.batch) w.resolve(undefined);
      else w.resolve({ value: undefined, done: true });
    }
  };

  private takeOne(): WatchCacheEvent<T> {
    const ev = this.queue[this.head] as WatchCacheEvent<T>;
    this.queue[this.head] = undefined;
    this.head++;
    if (this.allowance > 0) this.allowance--;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return ev;
  }

  private takeAll(): WatchCacheEvent<T>[] {
    const out = (this.head === 0 ? this.queue : this.queue.slice(this.head)) as WatchCacheEvent<T>[];
    this.allowance = Math.max(0, this.allowance - out.length);
    this.queue = [];
    this.head = 0;
    return out;
  }

  /** Hands queued events to a push-mode listener now (the cache calls it at the end of a fan-out). */
  drainListener(): void {
    if (this.listener && (this.head < this.queue.length || this.closed)) this.wake();
  }

  listen(onEvents: (events: readonly WatchCacheEvent<T>[]) => void, onEnd: () => void): void {
    this.listener = { onEvents, onEnd };
    if (this.head < this.queue.length || this.closed) this.scheduleWake();
  }

  nextBatch(): Promise<WatchCacheEvent<T>[] | undefined> {
    if (this.head < this.queue.length) return Promise.resolve(this.takeAll());
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiter = { batch: true, resolve };
    });
  }

  /** Closes the watch from the consumer side (no reason recorded). */
  close(): void {
    this.end(undefined);
  }

  private next(): Promise<IteratorResult<WatchCacheEvent<T>>> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.takeOne(), done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiter = { batch: false, resolve };
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
