import type { ApiObject, StoredObject } from '@orchard/meta';
import type { ResourceStrategy, StrategyContext } from './resource.js';

/**
 * The upstream split between a resource and its `/status` sub-resource: create drops `status`
 * (unless `keepStatusOnCreate`), a write to the main resource keeps the stored `status`, and a
 * write to `/status` changes only `status` (everything else is the stored object's, the
 * resourceVersion precondition excepted).
 */
export function statusSubresourceStrategy(
  base: ResourceStrategy = {},
  options: { initialStatus?: (obj: ApiObject) => unknown } = {},
): ResourceStrategy {
  return {
    ...base,
    prepareForCreate(obj: ApiObject, ctx: StrategyContext) {
      delete obj.status;
      const initial = options.initialStatus?.(obj);
      if (initial !== undefined) obj.status = initial;
      base.prepareForCreate?.(obj, ctx);
    },
    prepareForUpdate(obj: ApiObject, old: StoredObject, ctx: StrategyContext) {
      if (ctx.subresource === 'status') {
        const status = obj.status;
        const rv = obj.metadata?.resourceVersion;
        for (const k of Object.keys(obj)) delete obj[k];
        Object.assign(obj, structuredClone(old));
        if (status === undefined) delete obj.status;
        else obj.status = status;
        if (obj.metadata) {
          if (rv === undefined) delete obj.metadata.resourceVersion;
          else obj.metadata.resourceVersion = rv;
        }
      } else if (ctx.subresource === '') {
        if (old.status === undefined) delete obj.status;
        else obj.status = structuredClone(old.status);
      }
      base.prepareForUpdate?.(obj, old, ctx);
    },
  };
}
