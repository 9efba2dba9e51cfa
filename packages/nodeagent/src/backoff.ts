/** Exponential backoff of failed heartbeats (spec doc 2 §2.8: from 200 ms up to 7 s). */
export interface BackoffSettings {
  /** The first retry delay. Default 200 ms. */
  readonly initialMs: number;
  /** The cap. Default 7 s. */
  readonly maxMs: number;
}

/** Upstream's Lease retry schedule: 200 ms doubling up to 7 s. */
export const defaultBackoff: BackoffSettings = Object.freeze({ initialMs: 200, maxMs: 7_000 });

/** A doubling delay: `next()` gives 200, 400, 800 … capped at 7000; `reset()` after a success. */
export interface Backoff {
  next(): number;
  reset(): void;
}

/** A new backoff of `settings`. */
export function exponentialBackoff(settings: BackoffSettings = defaultBackoff): Backoff {
  let current = 0;
  return {
    next() {
      current = current === 0 ? settings.initialMs : Math.min(current * 2, settings.maxMs);
      return current;
    },
    reset() {
      current = 0;
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
