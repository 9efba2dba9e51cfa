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
  /** Set by `fail`: what the consumer gets after the queued events. */
  private failure: { readonly error: unknown } | undefined;

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

  /** Ends the watch with `error`: the consumer gets the events queued before it, then the error. */
  fail(error: unknown): void {
    if (this.done) return;
    this.failure = { error };
    this.end();
  }

  /**
   * Resolves when an event is queued (true) or the watch has ended with nothing left (false); with
   * events already queued, true at once. Rejects with the `fail` error once nothing is left.
   */
  async ready(): Promise<boolean> {
    while (this.head >= this.queue.length) {
      if (this.done) {
        if (this.failure) throw this.failure.error;
        return false;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
    return true;
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
      if (this.done) {
        if (this.failure) throw this.failure.error;
        return { value: undefined, done: true };
      }
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
 * is awaited before the next event (a reader yielding to the event loop now and then). A
 * `StoreWatcher`'s events are taken a whole queue at a time: a burst of writes costs one promise and
 * one wake-up instead of one per event (every watch cache follows the whole store, so a start's ~150
 * writes reached each cache one microtask turn at a time), and a steady stream of writes no
 * iterator step per event. Any other watch is read one event at a time. A failing watch rejects
 * (a `StoreWatcher` after the events queued before its `fail`); so does a throwing `apply` (after
 * closing the watch).
 */
export async function followStoreWatch(
  events: AsyncIterable<StoreEvent>,
  apply: (event: StoreEvent) => boolean | undefined | Promise<void>,
): Promise<void> {
  const it = events[Symbol.asyncIterator]();
  if (it instanceof StoreWatcher) return followQueued(it, apply);
  for (;;) {
    const r = await it.next();
    if (r.done) return;
    let answer: boolean | undefined | Promise<void>;
    try {
      answer = apply(r.value);
      if (answer instanceof Promise) await answer;
    } catch (e) {
      await it.return?.();
      throw e;
    }
    if (answer === false) {
      await it.return?.();
      return;
    }
  }
}

/**
 * `followStoreWatch` of a `StoreWatcher`: each wake-up takes the whole queue, with no promise, result
 * object or async frame per event (every watch cache and the lifecycle controllers follow the whole
 * store, so each write reached ~9 such loops on every backend).
 */
async function followQueued(
  w: StoreWatcher,
  apply: (event: StoreEvent) => boolean | undefined | Promise<void>,
): Promise<void> {
  try {
    while (await w.ready()) {
      const batch = w.drain();
      for (let i = 0; i < batch.length; i++) {
        const answer = apply(batch[i]!);
        if (answer === false) return;
        if (answer instanceof Promise) await answer;
      }
    }
  } finally {
    // Ended, failed, answered false or thrown: the watch is closed (a no-op once it has ended).
    w.end();
  }
}
