import { isStoreError, StoreError, type StoreEvent } from '@orchard/store';

/** How many recent events the hub keeps for a watcher that starts a little behind it. */
const maxBufferedEvents = 512;
/**
 * How far behind the hub (in revisions) a new watcher may start and still join it, the hub's stream
 * restarting from there (the watch caches of a starting server each list at their own revision).
 */
const maxRewind = 2000;
/** The value bytes those events may hold at most (values go up to 1.5 MiB each). */
const maxBufferedBytes = 4 * 1024 * 1024;

/** One watcher of the hub: its prefix, the revision it has seen, its queue of events and its end. */
interface Subscriber {
  readonly prefix: string;
  /** The last revision delivered to this watcher. */
  last: number;
  /** The last revision queued for it: a restarted stream's events up to it are skipped. */
  queued: number;
  readonly queue: StoreEvent[];
  failure: unknown;
  wake: (() => void) | undefined;
}

/**
 * Every watch of one store on one etcd stream (issue 15): a store's watches (a watch cache per
 * resource and the lifecycle controllers, most over the whole keyspace) each had their own gRPC
 * stream, so every event crossed the wire, was decoded from protobuf and turned into a KeyValue
 * once per watch. The hub runs one watch over the store's whole prefix (`openEtcdWatch`, with its
 * resume-after-the-last-event reconnects) and hands each event, decoded once and shared, to the
 * watchers whose prefix it falls under, in revision order. A watcher can join when the hub has every
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

  /** Events under `prefix` after `fromRevision`, or `undefined` when the hub has moved past it. */
  subscribe(
    prefix: string,
    fromRevision: number,
    signal: AbortSignal,
  ): AsyncGenerator<StoreEvent> | undefined {
    if (!this.running) this.start(fromRevision);
    else if (fromRevision < this.floor) {
      // Behind the hub: its stream restarts from there when that is only a little behind (the
      // watchers already on it skip what they were given), else the caller opens its own stream.
      if (this.head - fromRevision > maxRewind) return undefined;
      this.running.abort();
      this.start(fromRevision);
    }
    const sub: Subscriber = {
      prefix,
      last: fromRevision,
      queued: fromRevision,
      queue: [],
      failure: undefined,
      wake: undefined,
    };
    for (const ev of this.buffer)
      if (ev.revision > fromRevision && ev.kv.key.startsWith(prefix)) sub.queue.push(ev);
    sub.queued = Math.max(fromRevision, this.head);
    this.subscribers.add(sub);
    return this.drain(sub, signal);
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
    for (const sub of this.subscribers) {
      sub.failure = failure;
      sub.wake?.();
    }
    this.subscribers.clear();
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
      sub.queue.push(ev);
      if (sub.wake) {
        const w = sub.wake;
        sub.wake = undefined;
        w();
      }
    }
  }

  private async *drain(sub: Subscriber, signal: AbortSignal): AsyncGenerator<StoreEvent> {
    const onAbort = () => sub.wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (signal.aborted) return;
        const ev = sub.queue.shift();
        if (ev) {
          sub.last = ev.revision;
          yield ev;
          continue;
        }
        if (sub.failure !== undefined) throw asOwnFailure(sub.failure, sub.last);
        await new Promise<void>((resolve) => {
          sub.wake = resolve;
        });
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.subscribers.delete(sub);
      if (this.subscribers.size === 0 && this.running) {
        this.running.abort();
        this.running = undefined;
      }
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
