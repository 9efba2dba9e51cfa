import { isClientError, type RestClient } from '@orchard/client';
import { type Flavor, formatMicroTime } from '@orchard/meta';
import { type BackoffSettings, defaultBackoff, exponentialBackoff, sleep } from './backoff.js';

/** What a heartbeat loop reports to its owner (logs, tests, the watchdog). */
export type HeartbeatEvent =
  | {
      readonly loop: 'lease' | 'status';
      readonly type: 'ok';
      readonly at: number;
      /** How long the successful attempt took (ms): a Lease update's latency. */
      readonly latencyMs: number;
    }
  | {
      readonly loop: 'lease' | 'status';
      readonly type: 'retry';
      /** The delay before the next attempt (the backoff schedule). */
      readonly delayMs: number;
      readonly error: string;
    };

/** Settings of the Lease loop. */
export interface LeaseLoopOptions {
  readonly client: RestClient;
  readonly flavor: Flavor;
  readonly nodeName: string;
  /** `nodeLeaseDurationSeconds`. Default 40. */
  readonly leaseDurationSeconds: number;
  /** How often the Lease is renewed. Default 10 s (a quarter of the duration, as upstream). */
  readonly renewIntervalMs: number;
  readonly backoff?: BackoffSettings;
  /** Per-request timeout. */
  readonly requestTimeoutMs: number;
  /** The Node's uid once registered (the Lease is owned by the Node, so it goes with it). */
  readonly nodeUid: () => string | undefined;
  readonly now: () => Date;
  readonly onEvent?: (e: HeartbeatEvent) => void;
}

/** A running Lease loop. */
export interface LeaseLoop {
  /** Stops renewing (the Lease is left to expire, as upstream). */
  stop(): Promise<void>;
}

type Obj = Record<string, unknown>;

/**
 * The node Lease heartbeat (upstream's nodelease controller): `<nodeLeaseNamespace>/<node>` in the
 * flavor's coordination group is created when missing and its `renewTime` set every interval; a
 * failed renewal is retried with exponential backoff (200 ms → 7 s) until it succeeds. The loop never
 * waits for the status loop.
 */
export function startLeaseLoop(o: LeaseLoopOptions): LeaseLoop {
  const abort = new AbortController();
  const backoff = exponentialBackoff(o.backoff ?? defaultBackoff);
  const base = `/apis/${o.flavor.group('coordination')}/v1/namespaces/${o.flavor.nodeLeaseNamespace}/leases`;
  let cached: Obj | undefined;

  const request = <T>(method: string, path: string, body?: unknown) =>
    o.client.json<T>({
      method,
      path,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.any([abort.signal, AbortSignal.timeout(o.requestTimeoutMs)]),
    });

  /** A Lease made before the Node was registered gets its owner on a later renewal (as upstream). */
  const withOwner = (metadata: Obj): Obj => {
    const uid = o.nodeUid();
    const owners = metadata.ownerReferences;
    if (!uid || (Array.isArray(owners) && owners.length > 0)) return metadata;
    return { ...metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: o.nodeName, uid }] };
  };

  const spec = () => ({
    holderIdentity: o.nodeName,
    leaseDurationSeconds: o.leaseDurationSeconds,
    renewTime: formatMicroTime(o.now()),
  });

  /** The current Lease, created (with its first renewTime: that is the renewal) when missing. */
  async function ensure(): Promise<{ lease: Obj; created: boolean }> {
    try {
      return { lease: await request<Obj>('GET', `${base}/${o.nodeName}`), created: false };
    } catch (e) {
      if (!isClientError(e, 'Status') || e.status !== 404) throw e;
    }
    const uid = o.nodeUid();
    const metadata: Obj = { name: o.nodeName, namespace: o.flavor.nodeLeaseNamespace };
    if (uid) metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: o.nodeName, uid }];
    const lease = await request<Obj>('POST', base, {
      apiVersion: `${o.flavor.group('coordination')}/v1`,
      kind: 'Lease',
      metadata,
      spec: spec(),
    });
    return { lease, created: true };
  }

  async function renew(): Promise<void> {
    if (!cached) {
      const { lease, created } = await ensure();
      cached = lease;
      if (created) return;
    }
    try {
      cached = await request<Obj>('PUT', `${base}/${o.nodeName}`, {
        ...cached,
        metadata: withOwner(cached.metadata as Obj),
        spec: { ...(cached.spec as Obj), ...spec() },
      });
    } catch (e) {
      // A stale copy (409) or a deleted Lease (404): read or create it again next time.
      cached = undefined;
      throw e;
    }
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      const started = performance.now();
      try {
        await renew();
        backoff.reset();
        o.onEvent?.({ loop: 'lease', type: 'ok', at: Date.now(), latencyMs: performance.now() - started });
        await sleep(o.renewIntervalMs, abort.signal);
      } catch (e) {
        if (abort.signal.aborted) return;
        const delayMs = backoff.next();
        o.onEvent?.({ loop: 'lease', type: 'retry', delayMs, error: (e as Error).message });
        await sleep(delayMs, abort.signal);
      }
    }
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
