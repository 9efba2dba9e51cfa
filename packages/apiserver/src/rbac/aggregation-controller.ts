import type { ApiObject } from '@orchard/meta';
import { aggregatedRules, type ClusterRole, sameRules } from '@orchard/rbac';
import { isStoreError } from '@orchard/store';
import type { ServerState } from '../state.js';
import { rbacGroup } from './rbac-resources.js';

/**
 * The ClusterRole aggregation controller (spec doc 2 §2.3): every ClusterRole with an
 * `aggregationRule` gets as `rules` the rules of the ClusterRoles its selectors match; manual rules
 * are overwritten. Runs after each batch of ClusterRole changes the informer sees (so a labelled role
 * is picked up, and dropped when the label goes, within one write), one pass at a time.
 */
export interface AggregationController {
  /** Schedules a pass over `all` (the informer's view of every ClusterRole). */
  changed(all: ReadonlyMap<string, ClusterRole>): void;
  /** Resolves when no pass is running or scheduled. */
  idle(): Promise<void>;
}

export function createAggregationController(state: ServerState, signal: AbortSignal): AggregationController {
  const def = { group: rbacGroup(state.flavor), resource: 'clusterroles', namespace: '' };
  let running: Promise<void> = Promise.resolve();
  let scheduled = false;
  let latest: ReadonlyMap<string, ClusterRole> = new Map();

  async function pass(): Promise<void> {
    scheduled = false;
    const all = [...latest.values()];
    for (const target of all) {
      if (signal.aborted) return;
      const want = aggregatedRules(target, all);
      if (want === undefined || sameRules(target.rules, want)) continue;
      try {
        await state.objects.update(state.objects.key(def, target.metadata.name), (current) => {
          const rules = aggregatedRules(current as unknown as ClusterRole, [...latest.values()]) ?? [];
          return { ...current, rules } as ApiObject;
        });
      } catch (e) {
        // Deleted meanwhile: nothing to aggregate into.
        if (!isStoreError(e, 'NotFound'))
          state.log.error(`aggregating ClusterRole ${target.metadata.name} failed`, e);
      }
    }
  }

  return {
    changed(all) {
      latest = all;
      if (scheduled) return;
      scheduled = true;
      running = running.then(pass, pass);
    },
    async idle() {
      let seen: Promise<void> | undefined;
      while (seen !== running) {
        seen = running;
        await running;
      }
    },
  };
}
