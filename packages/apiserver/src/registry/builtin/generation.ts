import { jsonEqual } from '@orchard/meta/internal';
import type { ResourceStrategy } from '../resource.js';

/**
 * Upstream's `metadata.generation` rule of the kinds whose controllers track it (Deployment,
 * ReplicaSet, StatefulSet, DaemonSet, Job, CronJob…): 1 on create, +1 on every write of the main
 * resource that changes `spec`. Runs `base`'s hooks first so defaults are in place before the
 * comparison.
 */
export function withGeneration(base: ResourceStrategy): ResourceStrategy {
  return {
    ...base,
    prepareForCreate(obj, ctx) {
      base.prepareForCreate?.(obj, ctx);
      obj.metadata = { ...obj.metadata, generation: 1 };
    },
    prepareForUpdate(obj, old, ctx) {
      base.prepareForUpdate?.(obj, old, ctx);
      const gen = Number(old.metadata.generation ?? 1);
      const changed = ctx.subresource !== 'status' && !jsonEqual(obj.spec, old.spec);
      obj.metadata = { ...obj.metadata, generation: changed ? gen + 1 : gen };
    },
  };
}
