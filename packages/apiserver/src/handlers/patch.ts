import { parseMediaType } from '@orchard/codecs';
import { errors, type ApiObject } from '@orchard/meta';
import type { RequestContext } from '../context.js';
import { readBody } from '../request/body.js';
import { writeObject } from '../response/write.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { errorTarget } from './common.js';
import { updateObject } from './update.js';
import { parseJson } from '@orchard/codecs';
import { parseYaml } from '@orchard/codecs';

/** The patch media types this server decodes; the patch engineer's handler extends the set. */
export const patchMediaTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/**
 * patch: PATCH with the patch type in Content-Type (spec doc 1 §4.8). The body is parsed here
 * (JSON, or YAML for apply), then the `patch` write step turns (old, patch) into the new object.
 */
export async function handlePatch(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const ct = ctx.req.headers['content-type'] ?? '';
  const mt = parseMediaType(ct);
  const patchType = mt ? `${mt.type}/${mt.subtype}` : '';
  if (!patchMediaTypes.includes(patchType)) throw errors.unsupportedMediaType(ct, patchMediaTypes);
  const bytes = await readBody(ctx.req, ctx.server.options.maxRequestBodyBytes);
  const text = new TextDecoder().decode(bytes);
  const patch = patchType === 'application/apply-patch+yaml' ? parseYaml(text, patchType) : parseJson(text);
  const name = ctx.info.name;
  const out: ApiObject | undefined = await updateObject(ctx, def, 'patch', patch, patchType);
  if (!out) throw errors.notFound(errorTarget(def, name), name);
  writeObject(ctx, 200, out);
}
