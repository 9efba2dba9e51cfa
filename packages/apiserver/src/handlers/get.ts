import { errors } from '@orchard/meta';
import { planGet } from '@orchard/pager';
import type { RequestContext } from '../context.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { writeObject } from '../response/write.js';
import { errorTarget, objectKey } from './common.js';

/**
 * get (spec doc 1 §4.5), served from the resource's watch cache: unset resourceVersion = Most Recent
 * (consistent: the cache first catches up with the store), `0` = Any, other = Not older than (waits
 * briefly for a version the store has not reached, then 504 with Retry-After).
 */
export async function handleGet(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const name = ctx.info.name;
  const plan = planGet(ctx.query.resourceVersion);
  const { object } = await ctx.server.watchCaches.for(def).get(objectKey(ctx, def, name), plan);
  if (!object) throw errors.notFound(errorTarget(def, name), name);
  // Returned, not awaited: a response written synchronously costs no further microtask turn.
  return writeObject(ctx, 200, object, 'object', true);
}
