import { isStoreError, StoreError, type StoreEvent, type StoreWatcher } from '@orchard/store';

/** How many recent events the hub keeps for a watcher that starts a little behind it. */
const maxBufferedEvents = 512;
/**
 * How far behind the hub (in revisions) a new watcher may start and still join it, the hub's stream
 * restarting from there (the watch caches of a starting server each list at their own revision).
 */
const maxRewind = 2000;
/** The value bytes those events may hold at most (values go up to 1.5 MiB each). */
const maxBufferedBytes = 4 * 1024 * 1024;

/** One watcher of the hub: its prefix, the revision it was last given, and its queue. */
interface Subscriber {
  readonly prefix: string;
  /** The last revision queued for it: a restarted stream's events up to it are skipped. */
  queued: number;
  /** The last revision of its prefix queued for it (a compaction error names the next). */
  last: number;
  readonly watcher: StoreWatcher;
}

/**
 * Every watch of one store on one etcd stream (issue 15): a store's watches (a watch cache per
 * resource and the lifecycle controllers, most over the whole keyspace) each had their own gRPC
 * stream, so every event crossed the wire, was decoded from protobuf and turned into a KeyValue
 * once per watch. The hub runs one watch over the store's whole prefix (`openEtcdWatch`, with its
 * resume-after-the-last-event reconnects) and hands each event, decoded once and shared, to the
 * watchers whose prefix it falls under, in revision order: pushed into each watcher's
 * `StoreWatcher` as it arrives (no async generator step per event and watcher, which cost more than
 * the rest of the fan-out). A watcher can join when the hub has every
 * event after its start revision: the hub keeps its last few hundred events for watchers that start
 * just behind it (a list's revision, then a watch from it), restarts its stream for one a little
 * further behind (each watcher skips the events up to the last one it was given, so none sees an
 * event twice), and gives one far behind `undefined` (its own stream). An error that ends the hub's watch (compaction, etcd canceling it) ends every
 * watcher's with the same error, as each watch's own stream would have.
 */
export class EtcdWatchHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly buffer: StoreEvent[] = [];
  private bufferedBytes = 0;
  /** The buffer holds every event with a revision above this. */
  private floor = 0;
  private running: AbortController | undefined;
  /** The revision of the last event dispatched (the start revision before any). */
  private head = 0;

  /** `source(fromRevision, signal)`: the store's events (all keys) after `fromRevision`. */
  constructor(
    private readonly source: (fromRevision: number, signal: AbortSignal) => AsyncIterable<StoreEvent>,
  ) {}

  /**
   * Queues the events under `prefix` after `fromRevision` in `watcher` as the stream delivers them;
   * false (nothing queued) when the hub has moved past `fromRevision`. The watcher leaves the hub
   * when `signal` aborts; a failure of the hub's stream fails it after the events already queued.
   */
  subscribe(prefix: string, fromRevision: number, signal: AbortSignal, watcher: StoreWatcher): boolean {
    if (signal.aborted) return true;
    if (!this.running) this.start(fromRevision);
    else if (fromRevision < this.floor) {
      // Behind the hub: its stream restarts from there when that is only a little behind (the
      // watchers already on it skip what they were given), else the caller opens its own stream.
      if (this.head - fromRevision > maxRewind) return false;
      this.running.abort();
      this.start(fromRevision);
    }
    const sub: Subscriber = { prefix, queued: fromRevision, last: fromRevision, watcher };
    signal.addEventListener('abort', () => this.leave(sub), { once: true });
    for (const ev of this.buffer)
      if (ev.revision > fromRevision && ev.kv.key.startsWith(prefix)) {
        sub.last = ev.revision;
        watcher.push(ev);
      }
    sub.queued = Math.max(fromRevision, this.head);
    this.subscribers.add(sub);
    return true;
  }

  /** A watcher left: the stream stops with the last one. */
  private leave(sub: Subscriber): void {
    if (!this.subscribers.delete(sub)) return;
    if (this.subscribers.size === 0 && this.running) {
      this.running.abort();
      this.running = undefined;
    }
  }

  private start(fromRevision: number): void {
    const ac = new AbortController();
    this.running = ac;
    this.buffer.length = 0;
    this.bufferedBytes = 0;
    this.floor = fromRevision;
    this.head = fromRevision;
    void this.pump(fromRevision, ac);
  }

  private async pump(fromRevision: number, ac: AbortController): Promise<void> {
    let failure: unknown = new StoreError('Unavailable', 'etcd watch ended');
    try {
      for await (const ev of this.source(fromRevision, ac.signal)) {
        // A stream replaced by a restart delivers nothing more: the buffer stays in revision order.
        if (this.running !== ac) return;
        this.dispatch(ev);
      }
    } catch (e) {
      failure = e;
    }
    if (this.running === ac) this.running = undefined;
    if (ac.signal.aborted) return;
    const failed = [...this.subscribers];
    this.subscribers.clear();
    for (const sub of failed) sub.watcher.fail(asOwnFailure(failure, sub.last));
  }

  private dispatch(ev: StoreEvent): void {
    this.head = ev.revision;
    this.buffer.push(ev);
    this.bufferedBytes += sizeOf(ev);
    while (this.buffer.length > maxBufferedEvents || this.bufferedBytes > maxBufferedBytes) {
      const old = this.buffer.shift()!;
      this.bufferedBytes -= sizeOf(old);
      this.floor = Math.max(this.floor, old.revision);
    }
    const key = ev.kv.key;
    for (const sub of this.subscribers) {
      if (ev.revision <= sub.queued) continue;
      sub.queued = ev.revision;
      if (!key.startsWith(sub.prefix)) continue;
      sub.last = ev.revision;
      sub.watcher.push(ev);
    }
  }
}

/** The hub's failure as this watcher's: a compaction names the revision the watcher would resume from. */
function asOwnFailure(e: unknown, last: number): unknown {
  if (!isStoreError(e, 'Compacted')) return e;
  return new StoreError('Compacted', `required revision ${last} has been compacted`, undefined, e.revision);
}

function sizeOf(ev: StoreEvent): number {
  return ev.kv.value.byteLength + (ev.prevKv?.value.byteLength ?? 0);
}
