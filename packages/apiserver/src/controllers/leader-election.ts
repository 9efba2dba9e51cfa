/**
 * Lease-based leader election, as upstream client-go's `leaderelection` package: candidates race
 * to hold one Lease (`holderIdentity`, `leaseDurationSeconds`, `acquireTime`, `renewTime`,
 * `leaseTransitions`) through optimistic concurrency on its resourceVersion; the holder renews it
 * every `retryPeriodMs` and gives up leading when it could not renew for `renewDeadlineMs`; the
 * others take over once the record has not changed for its `leaseDurationSeconds` as measured on
 * their own clock (no clock comparison between servers). A clean stop releases the Lease (empty
 * holder, 1-second duration) so a successor takes over at its next retry.
 */

/** The record a Lease's spec holds (upstream `LeaderElectionRecord`); times are MicroTime strings. */
export interface LeaderElectionRecord {
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  readonly acquireTime: string;
  readonly renewTime: string;
  readonly leaseTransitions: number;
}

/** Where the record lives (a Lease object). Every method rejects when the write or read fails. */
export interface LeaseLock {
  /** The record and its resourceVersion; undefined when the Lease does not exist. */
  get(): Promise<{ readonly record: LeaderElectionRecord; readonly resourceVersion: string } | undefined>;
  /** Creates the Lease holding `record`; rejects when it exists. Resolves with its resourceVersion. */
  create(record: LeaderElectionRecord): Promise<string>;
  /** Replaces the record when the Lease is still at `resourceVersion`; rejects (Conflict) otherwise. */
  update(record: LeaderElectionRecord, resourceVersion: string): Promise<string>;
  /** `namespace/name`, for log lines. */
  describe(): string;
}

/** Timing and identity of a candidate (upstream `LeaderElectionConfig`). */
export interface LeaderElectionOptions {
  /** This candidate's unique identity (upstream: `<hostname>_<uuid>`). */
  readonly identity: string;
  /** How long others wait after the record last changed before taking over. Default 15 s (`--leader-elect-lease-duration`). */
  readonly leaseDurationMs: number;
  /** How long the leader keeps trying to renew before it stops leading. Default 10 s (`--leader-elect-renew-deadline`). */
  readonly renewDeadlineMs: number;
  /** Between attempts to acquire or renew. Default 2 s (`--leader-elect-retry-period`). */
  readonly retryPeriodMs: number;
}

/** Upstream's defaults (kube-controller-manager's `--leader-elect-*` flags). */
export const defaultLeaderElectionTimings = Object.freeze({
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
});

/** What the elector calls when leadership changes hands. */
export interface LeaderCallbacks {
  /** This candidate became the leader. */
  onStartedLeading(): void;
  /** This candidate stopped leading (lost the Lease or is stopping); awaited before the Lease is released. */
  onStoppedLeading(): void | Promise<void>;
  /** A different holder was observed ('' when the Lease was released). */
  onNewLeader?(identity: string): void;
}

/** A running candidate. */
export interface LeaderElector {
  /** Whether this candidate currently leads. */
  isLeader(): boolean;
  /** The holder last observed ('' when none). */
  leader(): string;
  /** Stops competing; a leader first stops leading (callbacks awaited), then releases the Lease. */
  stop(): Promise<void>;
}

/** `2026-01-02T03:04:05.678000Z`: upstream's MicroTime (RFC 3339 with microseconds, UTC). */
export function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Checks the timings as upstream's `NewLeaderElector` does; throws naming the rule broken. */
export function validateLeaderElectionTimings(o: Omit<LeaderElectionOptions, 'identity'>): void {
  if (!(o.retryPeriodMs > 0)) throw new Error('the retry period must be greater than zero');
  if (!(o.leaseDurationMs > o.renewDeadlineMs))
    throw new Error('the lease duration must be greater than the renew deadline');
  if (!(o.renewDeadlineMs > o.retryPeriodMs * 1.2))
    throw new Error('the renew deadline must be greater than 1.2 times the retry period');
}

function sameRecord(a: LeaderElectionRecord | undefined, b: LeaderElectionRecord): boolean {
  return (
    a !== undefined &&
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaseTransitions === b.leaseTransitions
  );
}

const timedOut = Symbol('timed out');

/**
 * Starts a candidate for `lock`: it tries at once, then every `retryPeriodMs` (jittered up to 2.2×,
 * as upstream); `log` gets one line per change of hands. Errors of the lock count as a failed attempt.
 */
export function startLeaderElection(
  lock: LeaseLock,
  options: LeaderElectionOptions,
  callbacks: LeaderCallbacks,
  log: (line: string) => void = () => {},
): LeaderElector {
  validateLeaderElectionTimings(options);
  const { identity, leaseDurationMs, renewDeadlineMs, retryPeriodMs } = options;
  const leaseSeconds = Math.max(1, Math.round(leaseDurationMs / 1000));
  let observed: LeaderElectionRecord | undefined;
  let observedVersion = '';
  let observedAt = 0;
  let leading = false;
  let stopped = false;
  let wake: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const t = setTimeout(() => {
        wake = undefined;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(t);
        wake = undefined;
        resolve();
      };
    });

  function observe(record: LeaderElectionRecord, version: string, at: number): void {
    if (!sameRecord(observed, record)) {
      if (observed?.holderIdentity !== record.holderIdentity) callbacks.onNewLeader?.(record.holderIdentity);
      observed = record;
      observedAt = at;
    }
    observedVersion = version;
  }

  /** One upstream `tryAcquireOrRenew`: whether this candidate holds the Lease afterwards. */
  async function tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const fresh: LeaderElectionRecord = {
      holderIdentity: identity,
      leaseDurationSeconds: leaseSeconds,
      acquireTime: formatMicroTime(now),
      renewTime: formatMicroTime(now),
      leaseTransitions: 0,
    };
    const current = await lock.get();
    if (current === undefined) {
      observe(fresh, await lock.create(fresh), now);
      return true;
    }
    observe(current.record, current.resourceVersion, now);
    const old = current.record;
    const valid = observedAt + old.leaseDurationSeconds * 1000 > now;
    if (old.holderIdentity !== '' && old.holderIdentity !== identity && valid) return false;
    const next: LeaderElectionRecord =
      old.holderIdentity === identity
        ? { ...fresh, acquireTime: old.acquireTime, leaseTransitions: old.leaseTransitions }
        : { ...fresh, leaseTransitions: old.leaseTransitions + 1 };
    observe(next, await lock.update(next, current.resourceVersion), now);
    return true;
  }

  /** An attempt bounded by `ms` (a hung store counts as a failure); lock errors are failures too. */
  async function attempt(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<typeof timedOut>((r) => {
      timer = setTimeout(() => r(timedOut), Math.max(1, ms));
    });
    try {
      const r = await Promise.race([tryAcquireOrRenew().catch(() => false), deadline]);
      return r === true;
    } finally {
      clearTimeout(timer);
    }
  }

  async function stopLeading(reason: string): Promise<void> {
    if (!leading) return;
    leading = false;
    log(`leader election: ${identity} stopped leading (${reason})`);
    await callbacks.onStoppedLeading();
  }

  async function run(): Promise<void> {
    while (!stopped) {
      // Acquire: try at once, then every retry period with jitter.
      while (!stopped && !(await attempt(renewDeadlineMs)))
        await sleep(retryPeriodMs * (1 + Math.random() * 1.2));
      if (stopped) return;
      leading = true;
      log(`leader election: ${identity} acquired lease ${lock.describe()}`);
      callbacks.onStartedLeading();
      // Renew: each round retries within the renew deadline; another holder ends leading at once.
      while (!stopped) {
        await sleep(retryPeriodMs);
        if (stopped) return;
        const start = Date.now();
        let renewed = false;
        while (!stopped && !renewed) {
          const left = renewDeadlineMs - (Date.now() - start);
          if (left <= 0) break;
          renewed = await attempt(left);
          if (!renewed && observed !== undefined && observed.holderIdentity !== identity) break;
          if (!renewed)
            await sleep(Math.min(retryPeriodMs, Math.max(0, renewDeadlineMs - (Date.now() - start))));
        }
        if (stopped) return;
        if (!renewed) {
          await stopLeading(
            observed && observed.holderIdentity !== identity
              ? `lease ${lock.describe()} is held by ${observed.holderIdentity || 'nobody'}`
              : `failed to renew lease ${lock.describe()} within ${renewDeadlineMs} ms`,
          );
          break;
        }
      }
    }
  }

  const loop = run();

  return {
    isLeader: () => leading,
    leader: () => observed?.holderIdentity ?? '',
    async stop() {
      if (stopped) return loop;
      stopped = true;
      wake?.();
      await loop;
      const wasLeading = leading;
      await stopLeading('stopping');
      if (!wasLeading || observed === undefined || observed.holderIdentity !== identity) return;
      const now = formatMicroTime(Date.now());
      const released: LeaderElectionRecord = {
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: observed.leaseTransitions,
      };
      try {
        await lock.update(released, observedVersion);
        log(`leader election: ${identity} released lease ${lock.describe()}`);
      } catch (e) {
        // Lost meanwhile, or the store is gone: the Lease expires by itself.
        log(
          `leader election: ${identity} could not release lease ${lock.describe()}: ${(e as Error).message}`,
        );
      }
    },
  };
}
