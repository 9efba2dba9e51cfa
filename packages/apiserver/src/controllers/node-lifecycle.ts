import { isStoreError } from '@orchard/store';
import type { ServerState } from '../state.js';
import {
  hasReadyCondition,
  type NodeHealth,
  observeNodeHealth,
  readyHeartbeat,
  unknownConditions,
} from './node-health.js';
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
  /** The controller's clock (ms); tests inject a fake one. Default `Date.now`. */
  readonly now: () => number;
}

/** Upstream's defaults: 50 s grace, 60 s startup grace, a check every 5 s, the real clock. */
export const defaultNodeLifecycleSettings: Readonly<NodeLifecycleSettings> = Object.freeze({
  gracePeriodMs: 50_000,
  startupGracePeriodMs: 60_000,
  monitorPeriodMs: 5_000,
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
 * Unknown through its status. It neither taints nor evicts (not built).
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

  async function markUnknown(name: string): Promise<void> {
    const key = objects.key({ group: '', resource: 'nodes', namespace: '' }, name);
    try {
      await objects.update(key, (current) => {
        const conditions = unknownConditions(current, flavor, new Date(settings.now()));
        if (!conditions) return current;
        const status = (current.status ?? {}) as Record<string, unknown>;
        return { ...current, status: { ...status, conditions } };
      });
    } catch (e) {
      if (!isStoreError(e, 'NotFound')) throw e;
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
        await markUnknown(name);
      } catch (e) {
        state.log.error(`node lifecycle controller: node ${name}`, e);
      }
    }
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
