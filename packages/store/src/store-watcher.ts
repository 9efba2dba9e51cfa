import type { StoreEvent } from './store.js';

const none: readonly StoreEvent[] = Object.freeze([]);

/**
 * One store watch, for backends to hand out from `Store.watch`: an unbounded queue of events
 * (seeded with the backlog from the requested revision) drained by an async iterator. It ends when
 * `end()` is called (the store closes), the signal aborts or the consumer returns; the watch cache
 * above bounds per-client buffers.
 */
export class StoreWatcher implements AsyncIterator<StoreEvent> {
  private queue: StoreEvent[];
  private head = 0;
  private wake: (() => void) | undefined;
  private done = false;

  constructor(
    readonly prefix: string,
    backlog: StoreEvent[],
    private readonly unregister: () => void,
    signal: AbortSignal | undefined,
  ) {
    this.queue = backlog;
    if (signal) {
      if (signal.aborted) this.end();
      else signal.addEventListener('abort', () => this.end(), { once: true });
    }
  }

  push(event: StoreEvent): void {
    if (this.done) return;
    this.queue.push(event);
    this.wake?.();
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.unregister();
    this.wake?.();
  }

  /**
   * The next event. A queued one is handed out in an already-settled promise without an async
   * function's frame (a start-up pushes ~150 events through each watcher: the frames were the
   * largest allocation of a warm test-server start).
   */
  next(): Promise<IteratorResult<StoreEvent>> {
    return this.head < this.queue.length ? Promise.resolve(this.shift()) : this.waitNext();
  }

  /** Takes every queued event at once, in order, leaving the queue empty. */
  drain(): readonly StoreEvent[] {
    if (this.head >= this.queue.length) return none;
    const out = this.head === 0 ? this.queue : this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    return out;
  }

  private shift(): IteratorResult<StoreEvent> {
    const value = this.queue[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return { value, done: false };
  }

  private async waitNext(): Promise<IteratorResult<StoreEvent>> {
    for (;;) {
      if (this.head < this.queue.length) return this.shift();
      if (this.done) return { value: undefined, done: true };
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  async return(): Promise<IteratorResult<StoreEvent>> {
    this.end();
    return { value: undefined, done: true };
  }
}

/**
 * Hands each event of a store watch to `apply`, in order, until the watch ends or `apply` answers
 * `false` (then the watch is closed, as leaving a `for await` closes it); a promise `apply` answers
 * is awaited before the next event (a reader yielding to the event loop now and then). Events
 * already queued in a `StoreWatcher` are taken together after the one that woke the reader: a
 * burst of writes costs one promise and one wake-up instead of one per event (every watch cache
 * follows the whole store, so a start's ~150 writes reached each cache one microtask turn at a
 * time). Any other watch is read one event at a time. A failing watch rejects; so does a throwing
 * `apply` (after closing the watch).
 */
export async function followStoreWatch(
  events: AsyncIterable<StoreEvent>,
  apply: (event: StoreEvent) => boolean | undefined | Promise<void>,
): Promise<void> {
  const it = events[Symbol.asyncIterator]();
  const queued = it instanceof StoreWatcher ? it : undefined;
  for (;;) {
    const r = await it.next();
    if (r.done) return;
    let more: boolean;
    try {
      more = await deliver(r.value, queued, apply);
    } catch (e) {
      await it.return?.();
      throw e;
    }
    if (!more) {
      await it.return?.();
      return;
    }
  }
}

/** `first`, then whatever `queued` holds already; false once `apply` answers false. */
function deliver(
  first: StoreEvent,
  queued: StoreWatcher | undefined,
  apply: (event: StoreEvent) => boolean | undefined | Promise<void>,
): boolean | Promise<boolean> {
  const batch = queued?.drain() ?? none;
  for (let i = -1; i < batch.length; i++) {
    const answer = apply(i < 0 ? first : batch[i]!);
    if (answer === false) return false;
    if (answer instanceof Promise) return answer.then(() => deliverRest(batch, i + 1, apply));
  }
  return true;
}

/** The rest of a drained batch from `from`, awaiting what `apply` answers. */
async function deliverRest(
  batch: readonly StoreEvent[],
  from: number,
  apply: (event: StoreEvent) => boolean | undefined | Promise<void>,
): Promise<boolean> {
  for (let i = from; i < batch.length; i++) {
    const answer = apply(batch[i]!);
    if (answer === false) return false;
    if (answer instanceof Promise) await answer;
  }
  return true;
}
