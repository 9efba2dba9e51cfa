import type { StoreEvent } from './store.js';

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
