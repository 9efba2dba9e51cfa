import type { StoreEvent } from '@orchard/store';
import { type EtcdWatchArgs, openEtcdWatch } from './etcd-watch.js';

/** Events a feed keeps for watchers that join it from a revision it has already passed. */
const recentEventsMax = 4096;
/** Bytes of values (and previous values) those kept events may hold in all. */
const recentBytesMax = 32 * 1024 * 1024;

/** One watcher of a feed: the events it still has to take, and how its feed ended. */
interface Subscriber {
  /** The feed it takes events from (another one after a merge). */
  feed: Feed;
  /** Only events with a revision above this are delivered. */
  readonly after: number;
  readonly queue: StoreEvent[];
  head: number;
  /** Set when the feed failed: thrown once the queue is drained. */
  failure?: { error: unknown };
  ended: boolean;
  wake: (() => void) | undefined;
}

function eventBytes(ev: StoreEvent): number {
  return ev.kv.value.byteLength + (ev.prevKv?.value.byteLength ?? 0) + ev.kv.key.length;
}

/**
 * One etcd watch stream on a prefix that any number of the store's watches share. `floor` and
 * `position` bound what it can serve: every event with a revision in (floor, position] it has
 * delivered is in `recent`, in order, so a watch from any revision ≥ floor joins it without a gap
 * (replayed from `recent`, then live, skipping what is not above its own start).
 */
class Feed {
  floor: number;
  position: number;
  readonly subscribers = new Set<Subscriber>();
  private readonly recent: StoreEvent[] = [];
  private recentHead = 0;
  private recentBytes = 0;
  /** The last event delivered (undefined before the first). */
  private last: StoreEvent | undefined;
  private readonly abort = new AbortController();

  constructor(
    readonly prefix: string,
    start: number,
    args: Omit<EtcdWatchArgs, 'prefix' | 'fromRevision' | 'signal'>,
    private readonly onDone: (feed: Feed) => void,
    /** The other live feeds of the same prefix. */
    private readonly siblings: () => Iterable<Feed>,
  ) {
    this.floor = start;
    this.position = start;
    void this.run({ ...args, prefix, fromRevision: start, signal: this.abort.signal });
  }

  /** A watcher from `after` (the caller checked `after >= floor`), with what it missed replayed. */
  join(after: number): Subscriber {
    const sub: Subscriber = { feed: this, after, queue: [], head: 0, ended: false, wake: undefined };
    for (let i = this.recentHead; i < this.recent.length; i++) {
      const ev = this.recent[i]!;
      if (ev.revision > after) sub.queue.push(ev);
    }
    this.subscribers.add(sub);
    return sub;
  }

  leave(sub: Subscriber): void {
    this.subscribers.delete(sub);
    if (this.subscribers.size === 0) this.stop();
  }

  stop(): void {
    this.onDone(this);
    this.abort.abort();
  }

  private async run(args: EtcdWatchArgs): Promise<void> {
    let failure: { error: unknown } | undefined;
    try {
      for await (const ev of openEtcdWatch(args)) {
        this.remember(ev);
        this.position = ev.revision;
        for (const sub of this.subscribers) {
          if (ev.revision <= sub.after) continue;
          sub.queue.push(ev);
          sub.wake?.();
        }
        this.last = ev;
        this.absorbCaughtUp();
      }
    } catch (error) {
      failure = { error };
    }
    // Ended (stopped, or the stream failed for good): no one joins it any more.
    this.onDone(this);
    for (const sub of this.subscribers) {
      if (failure) sub.failure = failure;
      sub.ended = true;
      sub.wake?.();
    }
  }

  /**
   * Takes over the watchers of a sibling that has delivered exactly what this feed has (the same
   * last event: both streams deliver suffixes of one ordered log), and stops it: a watch started
   * from an older revision on a stream of its own joins the others' once it has caught up.
   */
  private absorbCaughtUp(): void {
    const last = this.last!;
    for (const other of this.siblings()) {
      if (other === this || other.last?.revision !== last.revision || other.last.kv.key !== last.kv.key)
        continue;
      for (const sub of other.subscribers) {
        sub.feed = this;
        this.subscribers.add(sub);
      }
      other.subscribers.clear();
      other.stop();
    }
  }

  private remember(ev: StoreEvent): void {
    this.recent.push(ev);
    this.recentBytes += eventBytes(ev);
    while (
      this.recent.length - this.recentHead > recentEventsMax ||
      (this.recentBytes > recentBytesMax && this.recent.length - this.recentHead > 1)
    ) {
      const old = this.recent[this.recentHead]!;
      this.recentHead++;
      this.recentBytes -= eventBytes(old);
      // Events at old's revision may still be kept; a watch from that revision wants none of them.
      this.floor = Math.max(this.floor, old.revision);
    }
    if (this.recentHead > 1024 && this.recentHead * 2 > this.recent.length) {
      this.recent.splice(0, this.recentHead);
      this.recentHead = 0;
    }
  }
}

/** The store's shared watch streams, by prefix. */
export interface EtcdWatchFeeds {
  /**
   * The events under `prefix` with a revision above `fromRevision`, in order, from a stream shared
   * with the store's other watches on that prefix when one can serve that revision (a new stream
   * otherwise). Ends when `signal` aborts; throws what the stream failed with (e.g. `Compacted`).
   */
  watch(prefix: string, fromRevision: number, signal: AbortSignal): AsyncGenerator<StoreEvent>;
  /** Ends every stream (the store is closing). */
  close(): void;
}

/**
 * Shared watch streams: the API server's watch caches and controllers each watch the whole keyspace,
 * and on separate streams etcd would send, and this client decode, every event once per watch.
 */
export function createEtcdWatchFeeds(
  args: Omit<EtcdWatchArgs, 'prefix' | 'fromRevision' | 'signal'>,
): EtcdWatchFeeds {
  const feeds = new Map<string, Set<Feed>>();
  const done = (feed: Feed) => {
    const set = feeds.get(feed.prefix);
    set?.delete(feed);
    if (set?.size === 0) feeds.delete(feed.prefix);
  };

  function feedFor(prefix: string, from: number): Feed {
    const set = feeds.get(prefix) ?? new Set<Feed>();
    for (const feed of set) if (feed.floor <= from) return feed;
    const feed = new Feed(prefix, from, args, done, () => feeds.get(prefix) ?? []);
    set.add(feed);
    feeds.set(prefix, set);
    return feed;
  }

  async function* watch(prefix: string, fromRevision: number, signal: AbortSignal) {
    if (signal.aborted) return;
    const sub = feedFor(prefix, fromRevision).join(fromRevision);
    const onAbort = () => sub.wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        while (sub.head < sub.queue.length) {
          const ev = sub.queue[sub.head]!;
          sub.head++;
          yield ev;
          if (signal.aborted) return;
        }
        sub.queue.length = 0;
        sub.head = 0;
        if (sub.failure) throw sub.failure.error;
        if (sub.ended || signal.aborted) return;
        await new Promise<void>((resolve) => {
          sub.wake = resolve;
        });
        sub.wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      sub.feed.leave(sub);
    }
  }

  return {
    watch,
    close() {
      for (const set of [...feeds.values()]) for (const feed of [...set]) feed.stop();
    },
  };
}
