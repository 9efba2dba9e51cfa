import { type Flavor, formatRfc3339 } from '@orchard/meta';

/** What the node lifecycle controller remembers of one node (upstream's `nodeHealthData`). */
export interface NodeHealth {
  /** When (controller clock, ms) the node was last seen alive: a new Ready heartbeat or Lease renewal. */
  probeAt: number;
  /** The Ready condition's `lastHeartbeatTime` last seen. */
  readyHeartbeat: string | undefined;
  /** The Lease's `spec.renewTime` last seen. */
  leaseRenewTime: string | undefined;
}

/** The condition types the controller turns Unknown (upstream's `nodeConditionTypes`). */
export const monitoredConditionTypes: readonly string[] = Object.freeze([
  'Ready',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
]);

type Condition = Record<string, unknown>;

const conditionsOf = (node: Record<string, unknown>): Condition[] => {
  const status = node.status;
  if (typeof status !== 'object' || status === null) return [];
  const list = (status as Record<string, unknown>).conditions;
  return Array.isArray(list)
    ? list.filter((c): c is Condition => typeof c === 'object' && c !== null && !Array.isArray(c))
    : [];
};

/** The `lastHeartbeatTime` of the node's Ready condition (undefined when it has none). */
export function readyHeartbeat(node: Record<string, unknown>): string | undefined {
  const ready = conditionsOf(node).find((c) => c.type === 'Ready');
  const t = ready?.lastHeartbeatTime;
  return typeof t === 'string' ? t : undefined;
}

/** Whether the node has a Ready condition at all (a node whose agent never posted status has none). */
export function hasReadyCondition(node: Record<string, unknown>): boolean {
  return conditionsOf(node).some((c) => c.type === 'Ready');
}

/**
 * Records an observation of the node and of its Lease (upstream `tryUpdateNodeHealth`'s first half):
 * a new Ready heartbeat or a new Lease `renewTime` moves the probe time to `now`.
 */
export function observeNodeHealth(
  saved: NodeHealth | undefined,
  heartbeat: string | undefined,
  leaseRenewTime: string | undefined,
  now: number,
): NodeHealth {
  if (!saved) return { probeAt: now, readyHeartbeat: heartbeat, leaseRenewTime };
  const next = { ...saved };
  if (heartbeat !== saved.readyHeartbeat) {
    next.readyHeartbeat = heartbeat;
    next.probeAt = now;
  }
  if (leaseRenewTime !== undefined && leaseRenewTime !== saved.leaseRenewTime) {
    next.leaseRenewTime = leaseRenewTime;
    next.probeAt = now;
  }
  return next;
}

/** The agent's name in the controller's messages: upstream's `Kubelet`, the node agent under orch. */
const agentName = (flavor: Flavor) => (flavor.name === 'kubernetes' ? 'Kubelet' : 'Node agent');

/**
 * The node's conditions once its grace period has passed without a sign of life (upstream
 * `tryUpdateNodeHealth`'s second half), or undefined when nothing changes: every monitored condition
 * that is not already Unknown becomes Unknown (reason `NodeStatusUnknown`, transition time now), a
 * missing one is added as Unknown (`NodeStatusNeverUpdated`, heartbeat = the node's creation time).
 * Other conditions (NetworkUnavailable) are kept as they are, as upstream does.
 */
export function unknownConditions(
  node: Record<string, unknown>,
  flavor: Flavor,
  now: Date,
): Condition[] | undefined {
  const conditions = conditionsOf(node).map((c) => ({ ...c }));
  const nowText = formatRfc3339(now);
  const meta = node.metadata as Record<string, unknown> | undefined;
  const created = typeof meta?.creationTimestamp === 'string' ? meta.creationTimestamp : nowText;
  let changed = false;
  for (const type of monitoredConditionTypes) {
    const current = conditions.find((c) => c.type === type);
    if (!current) {
      conditions.push({
        type,
        status: 'Unknown',
        lastHeartbeatTime: created,
        lastTransitionTime: nowText,
        reason: 'NodeStatusNeverUpdated',
        message: `${agentName(flavor)} never posted node status.`,
      });
      changed = true;
    } else if (current.status !== 'Unknown') {
      current.status = 'Unknown';
      current.reason = 'NodeStatusUnknown';
      current.message = `${agentName(flavor)} stopped posting node status.`;
      current.lastTransitionTime = nowText;
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}
