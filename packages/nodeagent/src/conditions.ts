import { type Flavor, parseQuantity } from '@orchard/meta';
import type { MachineSignals } from './machine.js';

/** One entry of `status.conditions` (spec doc 2 §2.8). */
export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastHeartbeatTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** An eviction threshold: an absolute amount or a percentage of the total. */
export type Threshold = { readonly quantity: number } | { readonly percent: number };

/** The hard eviction thresholds that raise the pressure conditions (`evictionHard`). */
export interface PressureThresholds {
  readonly 'memory.available': Threshold;
  readonly 'nodefs.available': Threshold;
  readonly 'nodefs.inodesFree': Threshold;
  readonly 'pid.available': Threshold;
}

/**
 * Upstream's Linux `evictionHard` defaults (memory.available<100Mi, nodefs.available<10%,
 * nodefs.inodesFree<5%), plus pid.available<10% (upstream sets no PID default; without one a node
 * never reports PIDPressure).
 */
export const defaultPressureThresholds: PressureThresholds = Object.freeze({
  'memory.available': { quantity: 100 * 1024 * 1024 },
  'nodefs.available': { percent: 10 },
  'nodefs.inodesFree': { percent: 5 },
  'pid.available': { percent: 10 },
});

/** The signals `evictionHard` may name. */
export const thresholdSignals: readonly (keyof PressureThresholds)[] = Object.freeze([
  'memory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'pid.available',
]);

/** `100Mi` or `10%` as a `Threshold`; throws a message naming the value when it is neither. */
export function parseThreshold(value: string): Threshold {
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(value);
  if (pct?.[1] !== undefined) {
    const percent = Number(pct[1]);
    if (percent > 100) throw new Error(`percentage must be at most 100%, got ${JSON.stringify(value)}`);
    return { percent };
  }
  try {
    return { quantity: Number(parseQuantity(value).value()) };
  } catch {
    throw new Error(`must be a quantity (100Mi) or a percentage (10%), got ${JSON.stringify(value)}`);
  }
}

/** Whether `available` of `total` is below the threshold. */
export function belowThreshold(t: Threshold, available: number, total: number): boolean {
  if ('percent' in t) return total > 0 && (available / total) * 100 < t.percent;
  return available < t.quantity;
}

/** `Kubelet`/`kubelet` under the kubernetes flavor (tools match these reasons), the node agent under orch. */
function agentNames(flavor: Flavor): { reason: string; text: string } {
  return flavor.name === 'kubernetes'
    ? { reason: 'Kubelet', text: 'kubelet' }
    : { reason: 'NodeAgent', text: 'node agent' };
}

interface Verdict {
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/** The five conditions' verdicts from the signals, with upstream's reasons and messages. */
export function conditionVerdicts(
  signals: MachineSignals,
  thresholds: PressureThresholds,
  flavor: Flavor,
): Verdict[] {
  const { reason: r, text: t } = agentNames(flavor);
  const memory = belowThreshold(
    thresholds['memory.available'],
    signals.memoryAvailableBytes,
    signals.memoryTotalBytes,
  );
  const disk =
    belowThreshold(thresholds['nodefs.available'], signals.diskAvailableBytes, signals.diskTotalBytes) ||
    belowThreshold(thresholds['nodefs.inodesFree'], signals.inodesFree, signals.inodesTotal);
  const pid = belowThreshold(
    thresholds['pid.available'],
    Math.max(0, signals.pidMax - signals.pidsInUse),
    signals.pidMax,
  );
  const pressure = (type: string, pressed: boolean, yes: [string, string], no: [string, string]): Verdict => {
    const [reason, message] = pressed ? yes : no;
    return { type, status: pressed ? 'True' : 'False', reason: `${r}${reason}`, message: `${t} ${message}` };
  };
  const network = signals.networkReady;
  return [
    network
      ? {
          type: 'NetworkUnavailable',
          status: 'False',
          reason: 'NetworkReady',
          message: `${t} sees a network interface with an address`,
        }
      : {
          type: 'NetworkUnavailable',
          status: 'True',
          reason: 'NoNetworkInterface',
          message: 'no network interface has an address',
        },
    pressure(
      'MemoryPressure',
      memory,
      ['HasInsufficientMemory', 'has insufficient memory available'],
      ['HasSufficientMemory', 'has sufficient memory available'],
    ),
    pressure(
      'DiskPressure',
      disk,
      ['HasDiskPressure', 'has disk pressure'],
      ['HasNoDiskPressure', 'has no disk pressure'],
    ),
    pressure(
      'PIDPressure',
      pid,
      ['HasInsufficientPID', 'has insufficient PID available'],
      ['HasSufficientPID', 'has sufficient PID available'],
    ),
    network
      ? { type: 'Ready', status: 'True', reason: `${r}Ready`, message: `${t} is posting ready status` }
      : {
          type: 'Ready',
          status: 'False',
          reason: `${r}NotReady`,
          message: 'container runtime network not ready: no network interface has an address',
        },
  ];
}

/**
 * The node's conditions at `now`: every heartbeat is `now`; a transition time moves only when a
 * condition's status changes from what `previous` had (a condition seen for the first time starts now).
 */
export function computeConditions(
  previous: readonly NodeCondition[] | undefined,
  verdicts: readonly Verdict[],
  now: string,
): NodeCondition[] {
  return verdicts.map((v) => {
    const before = previous?.find((c) => c.type === v.type);
    return {
      type: v.type,
      status: v.status,
      lastHeartbeatTime: now,
      lastTransitionTime: before && before.status === v.status ? before.lastTransitionTime : now,
      reason: v.reason,
      message: v.message,
    };
  });
}

/** Whether two condition lists differ in anything but heartbeat times (a change is posted at once). */
export function conditionsChanged(
  a: readonly NodeCondition[] | undefined,
  b: readonly NodeCondition[],
): boolean {
  if (!a || a.length !== b.length) return true;
  return b.some((c, i) => {
    const o = a[i];
    return (
      !o || o.type !== c.type || o.status !== c.status || o.reason !== c.reason || o.message !== c.message
    );
  });
}
