import { type Flavor, formatRfc3339 } from '@orchard/meta';

/** One entry of a Node's `spec.taints`. */
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
  readonly timeAdded?: string;
}

/** The taint keys the node lifecycle controller manages (upstream `node.kubernetes.io/…`). */
export interface NodeTaintKeys {
  readonly notReady: string;
  readonly unreachable: string;
  readonly memoryPressure: string;
  readonly diskPressure: string;
  readonly pidPressure: string;
  readonly networkUnavailable: string;
  readonly unschedulable: string;
}

/**
 * The controller's taint keys in `flavor`: `node.kubernetes.io/<name>` under kubernetes (as
 * upstream), `node.orch.io/<name>` under orch (the node label domain of doc 2 §2.8).
 */
export function nodeTaintKeys(flavor: Flavor): NodeTaintKeys {
  const d = `node.${flavor.name === 'kubernetes' ? 'kubernetes.io' : flavor.domain}`;
  return {
    notReady: `${d}/not-ready`,
    unreachable: `${d}/unreachable`,
    memoryPressure: `${d}/memory-pressure`,
    diskPressure: `${d}/disk-pressure`,
    pidPressure: `${d}/pid-pressure`,
    networkUnavailable: `${d}/network-unavailable`,
    unschedulable: `${d}/unschedulable`,
  };
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The status of the node's condition `type` (undefined when it has none). */
export function conditionStatus(node: Obj, type: string): string | undefined {
  const list = isObj(node.status) ? node.status.conditions : undefined;
  if (!Array.isArray(list)) return undefined;
  const c = list.find((x) => isObj(x) && x.type === type) as Obj | undefined;
  return typeof c?.status === 'string' ? c.status : undefined;
}

/** The node's `spec.taints` (entries that are not objects with a string key and effect are kept as they are). */
const taintsOf = (node: Obj): unknown[] => {
  const list = isObj(node.spec) ? node.spec.taints : undefined;
  return Array.isArray(list) ? list : [];
};

const sameTaint = (t: unknown, key: string, effect: string) =>
  isObj(t) && t.key === key && t.effect === effect;

/** Whether the node carries the taint `key:effect`. */
export function hasTaint(node: Obj, key: string, effect: string): boolean {
  return taintsOf(node).some((t) => sameTaint(t, key, effect));
}

/**
 * The NoSchedule taints the node's conditions and `spec.unschedulable` call for (upstream
 * `doNoScheduleTaintingPass`): Ready False → not-ready, Ready Unknown → unreachable, MemoryPressure /
 * DiskPressure / PIDPressure / NetworkUnavailable True → the matching pressure taint, unschedulable →
 * unschedulable.
 */
export function wantedNoScheduleKeys(node: Obj, keys: NodeTaintKeys): string[] {
  const out: string[] = [];
  const ready = conditionStatus(node, 'Ready');
  if (ready === 'False') out.push(keys.notReady);
  if (ready === 'Unknown') out.push(keys.unreachable);
  const pressure: [string, string][] = [
    ['MemoryPressure', keys.memoryPressure],
    ['DiskPressure', keys.diskPressure],
    ['PIDPressure', keys.pidPressure],
    ['NetworkUnavailable', keys.networkUnavailable],
  ];
  for (const [type, key] of pressure) if (conditionStatus(node, type) === 'True') out.push(key);
  if (isObj(node.spec) && node.spec.unschedulable === true) out.push(keys.unschedulable);
  return out;
}

/**
 * The node's taints after adding `add` and removing `remove` (each `key:effect`), new ones stamped
 * `timeAdded` = `now` as upstream's `SwapNodeControllerTaint` does; undefined when nothing changes.
 * Taints the controller does not manage are kept in place.
 */
export function swapTaints(
  node: Obj,
  add: readonly { key: string; effect: string }[],
  remove: readonly { key: string; effect: string }[],
  now: Date,
): unknown[] | undefined {
  const current = taintsOf(node);
  const kept = current.filter((t) => !remove.some((r) => sameTaint(t, r.key, r.effect)));
  const added = add
    .filter((a) => !kept.some((t) => sameTaint(t, a.key, a.effect)))
    .map((a): Taint => ({ key: a.key, effect: a.effect, timeAdded: formatRfc3339(now) }));
  if (added.length === 0 && kept.length === current.length) return undefined;
  return [...kept, ...added];
}

/** The NoSchedule swap that brings the node's condition taints in line (undefined: nothing to do). */
export function noScheduleTaints(node: Obj, keys: NodeTaintKeys, now: Date): unknown[] | undefined {
  const managed = new Set([
    keys.notReady,
    keys.unreachable,
    keys.memoryPressure,
    keys.diskPressure,
    keys.pidPressure,
    keys.networkUnavailable,
    keys.unschedulable,
  ]);
  const wanted = wantedNoScheduleKeys(node, keys);
  const remove = taintsOf(node)
    .filter((t): t is Obj => isObj(t) && t.effect === 'NoSchedule' && managed.has(t.key as string))
    .filter((t) => !wanted.includes(t.key as string))
    .map((t) => ({ key: t.key as string, effect: 'NoSchedule' }));
  return swapTaints(
    node,
    wanted.map((key) => ({ key, effect: 'NoSchedule' })),
    remove,
    now,
  );
}

/** What the NoExecute pass does with one node (upstream `processTaintBaseEviction`). */
export type NoExecuteAction =
  /** Ready is True (or the pass is off): drop both NoExecute taints. */
  | { readonly kind: 'clear' }
  /** Swap the opposite taint for `key` at once (the node already carries the other one). */
  | { readonly kind: 'swap'; readonly key: string; readonly opposite: string }
  /** Taint with `key` through the zone's rate-limited queue. */
  | { readonly kind: 'queue'; readonly key: string; readonly opposite: string }
  | { readonly kind: 'none' };

/**
 * The NoExecute decision for one node: Ready False wants `not-ready:NoExecute`, Unknown wants
 * `unreachable:NoExecute` (the two are exclusive: one carried is swapped for the other at once, a
 * fresh one waits for the zone's rate limiter), True clears both; no Ready condition does nothing.
 */
export function noExecuteAction(node: Obj, keys: NodeTaintKeys): NoExecuteAction {
  const ready = conditionStatus(node, 'Ready');
  if (ready === 'True') return { kind: 'clear' };
  if (ready !== 'False' && ready !== 'Unknown') return { kind: 'none' };
  const key = ready === 'False' ? keys.notReady : keys.unreachable;
  const opposite = ready === 'False' ? keys.unreachable : keys.notReady;
  if (hasTaint(node, key, 'NoExecute') && !hasTaint(node, opposite, 'NoExecute')) return { kind: 'none' };
  return { kind: hasTaint(node, opposite, 'NoExecute') ? 'swap' : 'queue', key, opposite };
}

/** A zone's disruption state (upstream `ZoneState`). */
export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption';

/**
 * A zone's state from its nodes' Ready statuses (upstream `ComputeZoneState`): no Ready node and at
 * least one not → FullDisruption; more than 2 not ready making at least `unhealthyThreshold` of the
 * zone → PartialDisruption; else Normal.
 */
export function zoneState(
  readyStatuses: readonly (string | undefined)[],
  unhealthyThreshold: number,
): ZoneState {
  const ready = readyStatuses.filter((s) => s === 'True').length;
  const notReady = readyStatuses.length - ready;
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / readyStatuses.length >= unhealthyThreshold) return 'PartialDisruption';
  return 'Normal';
}

/**
 * The zone key of a node (upstream `GetZoneKey`): its topology region and zone labels in `flavor`
 * ('' when it has neither).
 */
export function zoneKey(node: Obj, flavor: Flavor): string {
  const d = flavor.name === 'kubernetes' ? 'kubernetes.io' : flavor.domain;
  const labels = isObj(node.metadata) && isObj(node.metadata.labels) ? node.metadata.labels : {};
  const region = typeof labels[`topology.${d}/region`] === 'string' ? labels[`topology.${d}/region`] : '';
  const zone = typeof labels[`topology.${d}/zone`] === 'string' ? labels[`topology.${d}/zone`] : '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** A token bucket of burst 1 (upstream's eviction limiter): `take()` is true at most `qps` times a second. */
export class TokenBucket {
  private tokens = 1;
  private at: number;
  constructor(
    private qps: number,
    now: number,
  ) {
    this.at = now;
  }
  /** Changes the rate (upstream `SwapLimiter`); 0 stops the bucket. */
  setRate(qps: number, now: number): void {
    this.refill(now);
    if (qps !== this.qps && qps === 0) this.tokens = 0;
    this.qps = qps;
  }
  /** Takes a token if one is there. */
  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  private refill(now: number): void {
    this.tokens = Math.min(1, this.tokens + (Math.max(0, now - this.at) / 1000) * this.qps);
    this.at = now;
  }
}
