import { isClientError, type RestClient } from '@orchard/client';
import { type Flavor, formatRfc3339 } from '@orchard/meta';
import { type BackoffSettings, defaultBackoff, exponentialBackoff, sleep } from './backoff.js';
import {
  computeConditions,
  conditionsChanged,
  conditionVerdicts,
  defaultPressureThresholds,
  type NodeCondition,
} from './conditions.js';
import { type HeartbeatEvent, startLeaseLoop } from './lease.js';
import type { MachineProbe } from './machine.js';
import { type NodeShape, nodeLabels, nodeStatus, registrationObject } from './node-object.js';

/** Settings of one node agent. Only `client`, `flavor`, `nodeName` and `machine` are required. */
export interface NodeAgentOptions extends Partial<Omit<NodeShape, 'nodeName'>> {
  /** A client holding the node's own credentials (`system:node:<name>` in `system:nodes`). */
  readonly client: RestClient;
  readonly flavor: Flavor;
  /** The Node's name (hostname or `--hostname-override`). */
  readonly nodeName: string;
  readonly machine: MachineProbe;
  /** `nodeLeaseDurationSeconds`. Default 40. */
  readonly leaseDurationSeconds?: number;
  /** Lease renewal interval. Default 10 s. */
  readonly leaseRenewIntervalMs?: number;
  /** `nodeStatusUpdateFrequency`: how often the conditions are computed. Default 10 s. */
  readonly statusUpdateFrequencyMs?: number;
  /** `nodeStatusReportFrequency`: status is posted this often when nothing changes. Default 5 min. */
  readonly statusReportFrequencyMs?: number;
  /** Retry schedule of both loops. Default 200 ms doubling to 7 s. */
  readonly backoff?: BackoffSettings;
  /** Per-request timeout. Default 10 s. */
  readonly requestTimeoutMs?: number;
  /** The clock timestamps are taken from. Default `new Date()`. */
  readonly now?: () => Date;
  /** Every heartbeat success and retry, of both loops. */
  readonly onEvent?: (e: HeartbeatEvent) => void;
}

/** A running node agent. */
export interface NodeAgent {
  /** Resolves once the Node is registered (created, or found and its labels reconciled). */
  readonly registered: Promise<void>;
  /** Computes the conditions now instead of at the next tick (posted at once when they changed). */
  checkStatus(): void;
  /** Stops both loops; the Node and Lease stay (the Lease expires, the controller marks the node Unknown). */
  stop(): Promise<void>;
}

type Obj = Record<string, unknown>;

/**
 * Starts a node agent (spec doc 2 §2.8): registers the Node with its labels, addresses, nodeInfo,
 * capacity/allocatable and conditions, then runs two independent loops: the Lease renewal
 * (`startLeaseLoop`) and the status loop, which computes the five conditions every
 * `statusUpdateFrequencyMs` and posts status at once when they change, else every
 * `statusReportFrequencyMs`. Failures of either loop are retried with exponential backoff, so the
 * agent rides out an API outage and catches up when the server is back.
 */
export function startNodeAgent(o: NodeAgentOptions): NodeAgent {
  const abort = new AbortController();
  const now = o.now ?? (() => new Date());
  const shape: NodeShape = {
    nodeName: o.nodeName,
    maxPods: o.maxPods ?? 110,
    thresholds: o.thresholds ?? defaultPressureThresholds,
    ...(o.labels ? { labels: o.labels } : {}),
    ...(o.topology ? { topology: o.topology } : {}),
    ...(o.taints ? { taints: o.taints } : {}),
    ...(o.providerID ? { providerID: o.providerID } : {}),
    ...(o.reserved ? { reserved: o.reserved } : {}),
    ...(o.containerRuntimeVersion ? { containerRuntimeVersion: o.containerRuntimeVersion } : {}),
    ...(o.port !== undefined ? { port: o.port } : {}),
  };
  const requestTimeoutMs = o.requestTimeoutMs ?? 10_000;
  const updateEvery = o.statusUpdateFrequencyMs ?? 10_000;
  const reportEvery = o.statusReportFrequencyMs ?? 300_000;
  const nodePath = `/api/v1/nodes/${o.nodeName}`;
  let nodeUid: string | undefined;
  let postedResources = '';
  let lastReportAt = 0;
  let wake: (() => void) | undefined;

  const request = <T>(method: string, path: string, body?: unknown, contentType?: string) =>
    o.client.json<T>({
      method,
      path,
      ...(body === undefined ? {} : { body }),
      ...(contentType ? { contentType } : {}),
      signal: AbortSignal.any([abort.signal, AbortSignal.timeout(requestTimeoutMs)]),
    });

  /** The status to post now; transition times continue those of `previous`. */
  function currentStatus(previous: NodeCondition[] | undefined): {
    status: Obj;
    conditions: NodeCondition[];
    resources: string;
  } {
    const info = o.machine.info();
    const signals = o.machine.signals();
    const verdicts = conditionVerdicts(signals, shape.thresholds, o.flavor);
    const conditions = computeConditions(previous, verdicts, formatRfc3339(now()));
    const status = nodeStatus(info, signals, shape, conditions);
    const { conditions: _c, ...rest } = status;
    return { status, conditions, resources: JSON.stringify(rest) };
  }

  async function register(): Promise<void> {
    const { status, resources } = currentStatus(undefined);
    const info = o.machine.info();
    try {
      const created = await request<Obj>(
        'POST',
        '/api/v1/nodes',
        registrationObject(o.flavor, info, shape, status),
      );
      nodeUid = (created.metadata as Obj).uid as string;
      postedResources = resources;
      lastReportAt = now().getTime();
      return;
    } catch (e) {
      if (!isClientError(e, 'Status') || e.status !== 409) throw e;
    }
    // Already registered (a restart): keep the old conditions' transition times, reconcile our labels.
    const existing = await request<Obj>('GET', nodePath);
    const meta = existing.metadata as Obj;
    nodeUid = meta.uid as string;
    const labels = { ...(meta.labels as Record<string, string> | undefined) };
    const ours = nodeLabels(o.flavor, info, shape);
    if (Object.entries(ours).some(([k, v]) => labels[k] !== v)) {
      await request('PUT', nodePath, { ...existing, metadata: { ...meta, labels: { ...labels, ...ours } } });
    }
    await postStatus(true);
  }

  /**
   * Posts status when the conditions differ from the server's (a change here, or the node lifecycle
   * controller's Unknown after an outage), the resources changed, or the report interval passed.
   * The Node is read first, as upstream does, so transition times continue the server's.
   */
  async function postStatus(force: boolean): Promise<void> {
    const node = await request<Obj>('GET', nodePath);
    const current = (node.status as Obj | undefined)?.conditions;
    const onServer = Array.isArray(current) ? (current as NodeCondition[]) : undefined;
    const { status, conditions, resources } = currentStatus(onServer);
    const due = now().getTime() - lastReportAt >= reportEvery;
    if (!force && !due && !conditionsChanged(onServer, conditions) && resources === postedResources) return;
    await request('PATCH', `${nodePath}/status`, { status }, 'application/merge-patch+json');
    postedResources = resources;
    lastReportAt = now().getTime();
  }

  /** Sleeps `ms`, or less when `checkStatus()` is called. */
  const nap = (ms: number) =>
    Promise.race([
      sleep(ms, abort.signal),
      new Promise<void>((r) => {
        wake = r;
      }),
    ]);

  let markRegistered: () => void = () => {};
  const registered = new Promise<void>((r) => {
    markRegistered = r;
  });

  const statusLoop = (async () => {
    const backoff = exponentialBackoff(o.backoff ?? defaultBackoff);
    let isRegistered = false;
    while (!abort.signal.aborted) {
      const started = performance.now();
      try {
        if (!isRegistered) {
          await register();
          isRegistered = true;
          markRegistered();
        } else await postStatus(false);
        backoff.reset();
        o.onEvent?.({ loop: 'status', type: 'ok', at: Date.now(), latencyMs: performance.now() - started });
        await nap(updateEvery);
      } catch (e) {
        if (abort.signal.aborted) return;
        const delayMs = backoff.next();
        o.onEvent?.({ loop: 'status', type: 'retry', delayMs, error: (e as Error).message });
        await sleep(delayMs, abort.signal);
      }
    }
  })();

  const lease = startLeaseLoop({
    client: o.client,
    flavor: o.flavor,
    nodeName: o.nodeName,
    leaseDurationSeconds: o.leaseDurationSeconds ?? 40,
    renewIntervalMs: o.leaseRenewIntervalMs ?? 10_000,
    backoff: o.backoff ?? defaultBackoff,
    requestTimeoutMs,
    nodeUid: () => nodeUid,
    now,
    ...(o.onEvent ? { onEvent: o.onEvent } : {}),
  });

  return {
    registered,
    checkStatus() {
      wake?.();
    },
    async stop() {
      abort.abort();
      wake?.();
      await Promise.all([statusLoop, lease.stop()]);
    },
  };
}
