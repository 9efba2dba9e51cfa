import type { StoreEvent } from './store.js';

/**
 * One store watch, for backends to hand out from `Store.watch`: an unbounded queue of events
 * (seeded with the backlog from the requested revision) drained by an async iterator or by
 * `follow` (what `followStoreWatch` uses: a callback per event, no iterator step). It ends when
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
    if (this.consumer) this.schedule();
    else this.wake?.();
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.unregister();
    if (this.consumer) this.schedule();
    else this.wake?.();
  }

  /** Ends the watch with `error`: the consumer gets the events queued before it, then the error. */
  fail(error: unknown): void {
    if (this.done) return;
    this.failure = { error };
    this.end();
  }

  /**
   * Hands every event to `apply` in order, from a microtask after it is queued (never inside
   * `push`), until the watch ends (resolves), fails (rejects with the `fail` error after the queued
   * events), `apply` answers false (ends the watch and resolves) or throws (ends it and rejects). A
   * promise `apply` answers is awaited before the next event. One consumer per watcher: not with
   * `next`. Each wake-up is one microtask for the whole queue, with no promise, result object or
   * async frame per event (the queue is emptied in place: V8 frees its elements, so a refill still allocates).
   */
  follow(apply: (event: StoreEvent) => boolean | undefined | Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.consumer = { apply, resolve, reject };
      this.schedule();
    });
  }

  private consumer:
    | {
        readonly apply: (event: StoreEvent) => boolean | undefined | Promise<void>;
        readonly resolve: () => void;
        readonly reject: (e: unknown) => void;
      }
    | undefined;
  /** A flush is queued, or `apply`'s promise is being awaited: the next push need not queue one. */
  private busy = false;
  private readonly flushNow = (): void => this.flush();

  private schedule(): void {
    if (this.busy || this.consumer === undefined) return;
    this.busy = true;
    queueMicrotask(this.flushNow);
  }

  private flush(): void {
    this.busy = false;
    const c = this.consumer;
    if (c === undefined) return;
    try {
      while (this.head < this.queue.length) {
        const answer = c.apply(this.queue[this.head++]!);
        if (answer === false) {
          this.settle(undefined);
          return;
        }
        if (answer instanceof Promise) {
          this.busy = true;
          answer.then(this.flushNow, (e: unknown) => this.settle({ error: e }));
          return;
        }
      }
    } catch (e) {
      this.settle({ error: e });
      return;
    }
    // Everything handed over: emptied in place (the delivered events are no longer held).
    this.queue.length = 0;
    this.head = 0;
    if (this.done) this.settle(this.failure);
  }

  private settle(failure: { readonly error: unknown } | undefined): void {
    const c = this.consumer;
    this.consumer = undefined;
    this.end();
    if (failure) c?.reject(failure.error);
    else c?.resolve();
  }

  /**
   * The next event. A queued one is handed out in an already-settled promise without an async
   * function's frame (a start-up pushes ~150 events through each watcher: the frames were the
   * largest allocation of a warm test-server start).
   */
  next(): Promise<IteratorResult<StoreEvent>> {
    return this.head < this.queue.length ? Promise.resolve(this.shift()) : this.waitNext();
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
  if (it instanceof StoreWatcher) return it.follow(apply);
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
