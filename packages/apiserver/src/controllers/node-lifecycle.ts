import { isStoreError } from '@orchard/store';
import type { ServerState } from '../state.js';
import {
  hasReadyCondition,
  type NodeHealth,
  observeNodeHealth,
  readyHeartbeat,
  unknownConditions,
} from './node-health.js';
import {
  conditionStatus,
  nodeTaintKeys,
  noExecuteAction,
  noScheduleTaints,
  swapTaints,
  TokenBucket,
  zoneKey,
  zoneState,
} from './node-taints.js';
import type { ObservingController } from './service-account-controller.js';

/**
 * Settings of the node lifecycle controller (kube-controller-manager's `--node-monitor-*` flags).
 * Every field has a default in `defaultNodeLifecycleSettings`.
 */
export interface NodeLifecycleSettings {
  /** `--node-monitor-grace-period`: how long a node may go without a Lease renewal or Ready heartbeat. Default 50 s. */
  readonly gracePeriodMs: number;
  /** `--node-startup-grace-period`: the same for a node that never posted a Ready condition. Default 60 s. */
  readonly startupGracePeriodMs: number;
  /** `--node-monitor-period`: how often nodes are checked. Default 5 s. */
  readonly monitorPeriodMs: number;
  /** `--node-eviction-rate`: NoExecute taints added per second in a healthy zone (burst 1). Default 0.1. */
  readonly evictionRate: number;
  /** `--secondary-node-eviction-rate`: the same in a partially disrupted large zone. Default 0.01. */
  readonly secondaryEvictionRate: number;
  /** `--unhealthy-zone-threshold`: the not-ready share (over 2 nodes) that makes a zone partially disrupted. Default 0.55. */
  readonly unhealthyZoneThreshold: number;
  /** `--large-cluster-size-threshold`: zones up to this size stop NoExecute tainting when partially disrupted. Default 50. */
  readonly largeClusterSizeThreshold: number;
  /** The controller's clock (ms); tests inject a fake one. Default `Date.now`. */
  readonly now: () => number;
}

/** Upstream's defaults: 50 s grace, 60 s startup grace, a check every 5 s, the real clock. */
export const defaultNodeLifecycleSettings: Readonly<NodeLifecycleSettings> = Object.freeze({
  gracePeriodMs: 50_000,
  startupGracePeriodMs: 60_000,
  monitorPeriodMs: 5_000,
  evictionRate: 0.1,
  secondaryEvictionRate: 0.01,
  unhealthyZoneThreshold: 0.55,
  largeClusterSizeThreshold: 50,
  now: () => Date.now(),
});

interface Watched {
  node: Record<string, unknown>;
  health: NodeHealth;
}

/**
 * The node lifecycle controller's health monitor (upstream `monitorNodeHealth`): every node seen is
 * probed when its Ready heartbeat or its Lease in the node-lease namespace changes; a node silent for
 * longer than the grace period gets Ready, MemoryPressure, DiskPressure and PIDPressure set to
 * Unknown through its status. Then the taint passes (upstream `doNoScheduleTaintingPass` and
 * `doNoExecuteTaintingPass`): the NoSchedule taints of the conditions and `spec.unschedulable`
 * (`node.<domain>/not-ready`, `/unreachable`, the pressure taints, `/unschedulable`), and the
 * NoExecute `not-ready` / `unreachable` taint of Ready False / Unknown, added through a per-zone rate
 * limiter (`evictionRate`, none in a small partially disrupted zone) and dropped when Ready returns;
 * when every zone is fully disrupted (no node Ready anywhere) no NoExecute taint is kept, as
 * upstream's "master disruption mode". It does not evict Pods (the taint manager's part).
 */
export function createNodeLifecycleController(
  state: ServerState,
  input: Partial<NodeLifecycleSettings> = {},
): ObservingController & { monitor(): Promise<void> } {
  const settings = { ...defaultNodeLifecycleSettings, ...input };
  const { objects, flavor } = state;
  const leaseGroup = flavor.group('coordination');
  const nodes = new Map<string, Watched>();
  const renewTimes = new Map<string, string>();
  let running: Promise<void> | undefined;
  let stopped = false;

  const renewTimeOf = (lease: Record<string, unknown>): string | undefined => {
    const spec = lease.spec as Record<string, unknown> | undefined;
    return typeof spec?.renewTime === 'string' ? spec.renewTime : undefined;
  };

  const nodeKey = (name: string) => objects.key({ group: '', resource: 'nodes', namespace: '' }, name);

  async function markUnknown(name: string): Promise<Record<string, unknown> | undefined> {
    try {
      return (await objects.update(nodeKey(name), (current) => {
        const conditions = unknownConditions(current, flavor, new Date(settings.now()));
        if (!conditions) return current;
        const status = (current.status ?? {}) as Record<string, unknown>;
        return { ...current, status: { ...status, conditions } };
      })) as unknown as Record<string, unknown>;
    } catch (e) {
      if (!isStoreError(e, 'NotFound')) throw e;
      return undefined;
    }
  }

  const keys = nodeTaintKeys(flavor);
  const limiters = new Map<string, TokenBucket>();

  /** The rate of each zone's NoExecute limiter from the zones' states (upstream `handleDisruption`). */
  function zoneRates(now: number): { allFullyDisrupted: boolean; zoneOf: Map<string, string> } {
    const zones = new Map<string, (string | undefined)[]>();
    const zoneOf = new Map<string, string>();
    for (const [name, w] of nodes) {
      const zone = zoneKey(w.node, flavor);
      zoneOf.set(name, zone);
      const list = zones.get(zone) ?? [];
      list.push(conditionStatus(w.node, 'Ready'));
      zones.set(zone, list);
    }
    const states = new Map([...zones].map(([z, l]) => [z, zoneState(l, settings.unhealthyZoneThreshold)]));
    const allFullyDisrupted = states.size > 0 && [...states.values()].every((s) => s === 'FullDisruption');
    for (const [zone, state] of states) {
      const size = zones.get(zone)?.length ?? 0;
      let rate = settings.evictionRate;
      if (allFullyDisrupted) rate = 0;
      else if (state === 'PartialDisruption')
        rate = size > settings.largeClusterSizeThreshold ? settings.secondaryEvictionRate : 0;
      const bucket = limiters.get(zone) ?? new TokenBucket(rate, now);
      bucket.setRate(rate, now);
      limiters.set(zone, bucket);
    }
    for (const zone of [...limiters.keys()]) if (!zones.has(zone)) limiters.delete(zone);
    return { allFullyDisrupted, zoneOf };
  }

  /** Brings every node's controller taints in line with its conditions (one write per node that changes). */
  async function taintPass(now: number): Promise<void> {
    const at = new Date(now);
    const { allFullyDisrupted, zoneOf } = zoneRates(now);
    for (const [name, w] of [...nodes]) {
      if (stopped) return;
      const action = allFullyDisrupted ? ({ kind: 'clear' } as const) : noExecuteAction(w.node, keys);
      let add: { key: string; effect: string }[] = [];
      let remove: { key: string; effect: string }[] = [];
      if (action.kind === 'clear')
        remove = [keys.unreachable, keys.notReady].map((key) => ({ key, effect: 'NoExecute' }));
      else if (
        action.kind === 'swap' ||
        (action.kind === 'queue' && limiters.get(zoneOf.get(name) ?? '')?.take(now))
      ) {
        add = [{ key: action.key, effect: 'NoExecute' }];
        remove = [{ key: action.opposite, effect: 'NoExecute' }];
      }
      const plan = (node: Record<string, unknown>): Record<string, unknown> => {
        let next = node;
        const withTaints = (taints: unknown[]) => {
          next = { ...next, spec: { ...(next.spec as Record<string, unknown> | undefined), taints } };
        };
        const noSchedule = noScheduleTaints(next, keys, at);
        if (noSchedule) withTaints(noSchedule);
        const noExecute = swapTaints(next, add, remove, at);
        if (noExecute) withTaints(noExecute);
        return next;
      };
      if (plan(w.node) === w.node) continue;
      try {
        const updated = await objects.update(
          nodeKey(name),
          (current) => plan(current as unknown as Record<string, unknown>) as unknown as typeof current,
        );
        w.node = updated as unknown as Record<string, unknown>;
      } catch (e) {
        if (!isStoreError(e, 'NotFound'))
          state.log.error(`node lifecycle controller: tainting node ${name}`, e);
      }
    }
  }

  async function monitorOnce(): Promise<void> {
    const now = settings.now();
    for (const [name, w] of [...nodes]) {
      if (stopped) return;
      const grace = hasReadyCondition(w.node) ? settings.gracePeriodMs : settings.startupGracePeriodMs;
      if (now - w.health.probeAt <= grace) continue;
      if (unknownConditions(w.node, flavor, new Date(now)) === undefined) continue;
      try {
        const updated = await markUnknown(name);
        if (updated) w.node = updated;
      } catch (e) {
        state.log.error(`node lifecycle controller: node ${name}`, e);
      }
    }
    await taintPass(now);
  }

  const monitor = (): Promise<void> => {
    running ??= monitorOnce().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void monitor(), settings.monitorPeriodMs);
  timer.unref?.();

  return {
    observe(ev) {
      const name = ev.object.metadata.name;
      if (ev.group === '' && ev.resource === 'nodes') {
        if (ev.type === 'delete') {
          nodes.delete(name);
          return;
        }
        const saved = nodes.get(name);
        const health = observeNodeHealth(
          saved?.health,
          readyHeartbeat(ev.object),
          renewTimes.get(name),
          settings.now(),
        );
        nodes.set(name, { node: ev.object, health });
      } else if (
        ev.group === leaseGroup &&
        ev.resource === 'leases' &&
        ev.namespace === flavor.nodeLeaseNamespace
      ) {
        if (ev.type === 'delete') {
          renewTimes.delete(name);
          return;
        }
        const renewTime = renewTimeOf(ev.object);
        if (renewTime === undefined) return;
        renewTimes.set(name, renewTime);
        const w = nodes.get(name);
        if (w) w.health = observeNodeHealth(w.health, w.health.readyHeartbeat, renewTime, settings.now());
      }
    },
    monitor,
    idle: async () => {
      await running;
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
