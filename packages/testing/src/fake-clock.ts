/**
 * A settable clock for tests. `startTestServer({ clock })` installs it as the process's `Date` while
 * the server runs, so everything that reads the time through `Date` follows it: creationTimestamp,
 * deletionTimestamp, managedFields times, Lease acquire/renew times and their expiry, token
 * lifetimes (TokenRequest, bootstrap tokens, service-account tokens), the compactor's clock. Timers
 * are not faked: a controller that sleeps until a deadline still wakes in real time, and then reads
 * the fake time. One fake clock per process at a time (vitest runs each file in its own process).
 */
export interface FakeClock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /** Sets the time (a `Date`, epoch milliseconds or an RFC 3339 string). */
  set(time: Date | number | string): void;
  /** Moves the time forward by `ms` (negative moves it back). */
  advance(ms: number): void;
}

/** A fake clock starting at `start` (default: the real time, whole seconds). */
export function createFakeClock(start?: Date | number | string): FakeClock {
  const toMs = (t: Date | number | string) => {
    const ms = typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : t.getTime();
    if (!Number.isFinite(ms)) throw new RangeError(`fake clock: not a time: ${String(t)}`);
    return ms;
  };
  let current = start === undefined ? Math.floor(Date.now() / 1000) * 1000 : toMs(start);
  return {
    now: () => current,
    set(time) {
      current = toMs(time);
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new RangeError(`fake clock: cannot advance by ${ms}`);
      current += ms;
    },
  };
}

const realDate = globalThis.Date;
let installed: FakeClock | undefined;

/**
 * Makes `Date` (new `Date()`, `Date.now()`) read `clock` until the returned function is called.
 * Installing a second, different clock while one is installed throws; the same clock nests.
 */
export function installFakeClock(clock: FakeClock): () => void {
  if (installed && installed !== clock)
    throw new Error('a different fake clock is already installed in this process (one at a time)');
  if (installed === clock) return () => {};
  installed = clock;
  class FakeDate extends realDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(clock.now());
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return clock.now();
    }
  }
  globalThis.Date = FakeDate as DateConstructor;
  return () => {
    if (installed !== clock) return;
    installed = undefined;
    globalThis.Date = realDate;
  };
}
