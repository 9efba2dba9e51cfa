import { isStoreError, type Store } from '@orchard/store';

/** The clock and interval timer a compactor runs on; tests pass a fake one to tick without waiting. */
export interface CompactorTimers {
  now(): number;
  /** Calls `callback` every `ms`; a returned promise is the tick's work (a fake timer may await it). */
  setInterval(callback: () => Promise<void>, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** The compactor's timers on the real clock (`setInterval`, `Date.now`); tests inject fakes. */
export const systemCompactorTimers: CompactorTimers = Object.freeze({
  now: () => Date.now(),
  setInterval: (callback: () => Promise<void>, ms: number): unknown => {
    const handle = setInterval(() => void callback(), ms);
    // A compaction pending is no reason to keep the process alive.
    handle.unref?.();
    return handle;
  },
  clearInterval: (handle: unknown) => clearInterval(handle as ReturnType<typeof setInterval>),
});

/** How often the compactor runs, the history it keeps at least, its timers and where failures go. */
export interface CompactorOptions {
  /** Time between compactions (upstream `--etcd-compaction-interval`, default 5 minutes); 0 disables. */
  intervalMs: number;
  /**
   * History kept at least this long whatever the interval: the watch caches' window (`windowMs`),
   * since they serve watches and Exact reads only above the store's compacted revision. Default 0.
   */
  minRetainMs?: number;
  timers?: CompactorTimers;
  /** Receives compactions that fail (the next tick retries). */
  onError?: (error: unknown) => void;
}

/** Periodic compaction of a Store. */
export interface Compactor {
  /**
   * One compaction step: records the current revision, then compacts to the newest revision recorded
   * at an earlier tick that is at least `minRetainMs` old (with the default, the previous tick's).
   * Resolves to the revision compacted to, or undefined when there was nothing to compact yet.
   * Ticks never overlap: a tick while one runs waits for it.
   */
  tick(): Promise<number | undefined>;
  /** Stops the timer and waits for a running tick. Idempotent. */
  stop(): Promise<void>;
}

interface Sample {
  readonly time: number;
  readonly revision: number;
}

/**
 * Compacts `store` every `intervalMs` to the revision observed at the previous tick, as
 * kube-apiserver does with etcd: at least one interval of history is always kept, so watches and
 * continue tokens younger than that can resume, while memory stays bounded under endless writes.
 * Open watches are unaffected (a store watch already past the compacted revision keeps streaming).
 */
export function createCompactor(store: Store, options: CompactorOptions): Compactor {
  const timers = options.timers ?? systemCompactorTimers;
  const minRetainMs = options.minRetainMs ?? 0;
  let samples: Sample[] = [];
  let running: Promise<number | undefined> = Promise.resolve(undefined);
  let stopped = false;

  const step = async (): Promise<number | undefined> => {
    if (stopped) return undefined;
    const now = timers.now();
    const revision = await store.currentRevision();
    let target: Sample | undefined;
    let keepFrom = 0;
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i] as Sample;
      if (now - s.time >= minRetainMs) {
        target = s;
        keepFrom = i + 1;
      }
    }
    samples = [...samples.slice(keepFrom), { time: now, revision }];
    if (target === undefined || target.revision <= (await store.compactedRevision())) return undefined;
    await store.compact(target.revision);
    return target.revision;
  };

  const tick = (): Promise<number | undefined> => {
    const next = running.then(step, step);
    running = next.catch(() => undefined);
    return next;
  };

  const handle =
    options.intervalMs > 0
      ? timers.setInterval(async () => {
          try {
            await tick();
          } catch (e) {
            // A closed store is the server shutting down, not a failure worth reporting.
            if (!stopped && !isStoreError(e, 'Unavailable')) options.onError?.(e);
          }
        }, options.intervalMs)
      : undefined;

  return {
    tick,
    async stop() {
      if (!stopped && handle !== undefined) timers.clearInterval(handle);
      stopped = true;
      await running;
    },
  };
}
