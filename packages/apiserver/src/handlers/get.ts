import { errors } from '@orchard/meta';
import type { RequestContext } from '../context.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { writeObject } from '../response/write.js';
import { errorTarget, objectKey, parseResourceVersion } from './common.js';

/**
 * get (spec doc 1 §4.5): unset resourceVersion = Most Recent, `0` = Any, other = Not older than
 * (504 Too large resource version when the store has not reached it).
 */
export async function handleGet(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const name = ctx.info.name;
  const objects = ctx.server.objects;
  const rv = ctx.query.resourceVersion;
  const { object, revision } = await objects.get(objectKey(ctx, def, name));
  if (rv !== undefined && rv !== '' && rv !== '0') {
    const wanted = parseResourceVersion(rv);
    if (wanted > revision) throw errors.tooLargeResourceVersion(rv, String(revision));
  }
  if (!object) throw errors.notFound(errorTarget(def, name), name);
  writeObject(ctx, 200, object);
}
