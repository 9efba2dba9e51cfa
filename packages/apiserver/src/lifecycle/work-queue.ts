/**
 * A bounded, de-duplicating work queue with a fixed number of workers, in the manner of
 * client-go's workqueue: an item queued while queued is not added twice; an item queued while being
 * processed runs again once its current run ends (never two runs of one item at a time). Failed
 * items are retried after a delay with exponential backoff. Workers yield to the event loop between
 * items, so a long backlog never starves request handling.
 */
export interface WorkQueueOptions {
  /** Concurrent workers. Default 4. */
  readonly workers: number;
  /**
   * Most items waiting at once. Beyond it `add` drops the item and calls `onOverflow` (the owner
   * then schedules a full resync). Default 100_000.
   */
  readonly maxQueued: number;
  /** First retry delay after a failure, doubled per failure up to `maxRetryDelayMs`. Default 20 ms. */
  readonly retryDelayMs: number;
  /** Default 5 s. */
  readonly maxRetryDelayMs: number;
  /** Failures after which an item is dropped (logged). Default 15. */
  readonly maxRetries: number;
}

export const defaultWorkQueueOptions: Readonly<WorkQueueOptions> = Object.freeze({
  workers: 4,
  maxQueued: 100_000,
  retryDelayMs: 20,
  maxRetryDelayMs: 5_000,
  maxRetries: 15,
});

export interface WorkQueue {
  add(item: string): void;
  /** Adds after `delayMs` (a periodic re-check). */
  addAfter(item: string, delayMs: number): void;
  /** Items waiting or running. */
  size(): number;
  /** Resolves when nothing is queued, running or scheduled for retry. */
  idle(): Promise<void>;
  /** Drops what is queued and resolves once the items already running have finished. */
  stop(): Promise<void>;
}

export function createWorkQueue(
  process: (item: string) => Promise<void>,
  callbacks: { onError(item: string, error: unknown, dropped: boolean): void; onOverflow(): void },
  input: Partial<WorkQueueOptions> = {},
): WorkQueue {
  const o: WorkQueueOptions = { ...defaultWorkQueueOptions, ...input };
  const queue: string[] = [];
  let head = 0;
  const queued = new Set<string>();
  const running = new Set<string>();
  const dirty = new Set<string>();
  const failures = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let active = 0;
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  const isIdle = () => queued.size === 0 && running.size === 0 && timers.size === 0;
  const checkIdle = () => {
    if (!isIdle()) return;
    const w = idleWaiters;
    idleWaiters = [];
    for (const f of w) f();
  };

  const add = (item: string): void => {
    if (stopped) return;
    if (running.has(item)) {
      dirty.add(item);
      return;
    }
    if (queued.has(item)) return;
    if (queued.size >= o.maxQueued) {
      callbacks.onOverflow();
      return;
    }
    queued.add(item);
    queue.push(item);
    pump();
  };

  const take = (): string | undefined => {
    while (head < queue.length) {
      const item = queue[head++] as string;
      if (head > 1024 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
      if (queued.has(item)) return item;
    }
    return undefined;
  };

  const pump = (): void => {
    while (!stopped && active < o.workers && queued.size > 0) {
      active++;
      void worker();
    }
  };

  const worker = async (): Promise<void> => {
    let n = 0;
    try {
      for (;;) {
        if (stopped) return;
        const item = take();
        if (item === undefined) return;
        queued.delete(item);
        running.add(item);
        try {
          await process(item);
          failures.delete(item);
        } catch (e) {
          const count = (failures.get(item) ?? 0) + 1;
          const dropped = count > o.maxRetries;
          callbacks.onError(item, e, dropped);
          if (dropped) failures.delete(item);
          else {
            failures.set(item, count);
            schedule(item, Math.min(o.maxRetryDelayMs, o.retryDelayMs * 2 ** (count - 1)));
          }
        } finally {
          running.delete(item);
          if (dirty.delete(item)) add(item);
        }
        // Yield to I/O now and then: a backlog of in-memory work must not starve requests.
        if (++n % 16 === 0) await new Promise<void>((r) => setImmediate(r));
      }
    } finally {
      active--;
      checkIdle();
    }
  };

  const schedule = (item: string, delayMs: number): void => {
    if (stopped) return;
    const t = setTimeout(() => {
      timers.delete(t);
      add(item);
      checkIdle();
    }, delayMs);
    t.unref?.();
    timers.add(t);
  };

  return {
    add,
    addAfter: schedule,
    size: () => queued.size + running.size,
    idle: () => (isIdle() ? Promise.resolve() : new Promise((r) => idleWaiters.push(r))),
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      queued.clear();
      checkIdle();
      // Let items already running finish, so nothing touches the store after the owner closes it.
      while (running.size > 0) await new Promise<void>((r) => setTimeout(r, 1));
    },
  };
}
