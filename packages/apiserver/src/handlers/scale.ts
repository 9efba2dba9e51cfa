import { parseMediaType } from '@orchard/codecs';
import {
  type ApiObject,
  errors,
  formatLabelSelector,
  type LabelSelector,
  labelSelectorFromObject,
  patchMediaTypes,
  type StoredObject,
} from '@orchard/meta';
import { getOwn, setOwn } from '@orchard/meta/internal';
import { applyJsonPatch, applyMergePatch, parseJsonPatchText } from '@orchard/patch';
import type { RequestContext } from '../context.js';
import { convertAllToVersion } from '../crd/conversion.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { readBody } from '../request/body.js';
import { writeObject } from '../response/write.js';
import { customResourceInfo, type ScalePaths } from '../schema/schemas.js';
import { decodeBody, errorTarget, objectKey } from './common.js';
import { updateObject } from './update.js';

type Obj = Record<string, any>;

/** Built-in kinds with a `/scale` sub-resource and where they keep replicas. */
const builtinScale: Record<string, ScalePaths & { selectorFromSpec?: boolean }> = {
  'apps/deployments': {
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.replicas',
    selectorFromSpec: true,
  },
  'apps/replicasets': {
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.replicas',
    selectorFromSpec: true,
  },
  'apps/statefulsets': {
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.replicas',
    selectorFromSpec: true,
  },
};

export function scalePathsOf(
  def: ResourceDefinition,
): (ScalePaths & { selectorFromSpec?: boolean }) | undefined {
  return customResourceInfo(def)?.scale ?? builtinScale[`${def.group}/${def.resource}`];
}

function getPath(o: Obj, path: string): unknown {
  let cur: unknown = o;
  for (const p of path.split('.').filter(Boolean)) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Obj)[p];
  }
  return cur;
}

function setPath(o: Obj, path: string, value: unknown): void {
  const parts = path.split('.').filter(Boolean);
  let cur = o;
  for (const p of parts.slice(0, -1)) {
    let next = getOwn(cur, p);
    if (typeof next !== 'object' || next === null) {
      next = {};
      setOwn(cur, p, next);
    }
    cur = next as Obj;
  }
  setOwn(cur, parts.at(-1)!, value);
}

/** A workload's `spec.selector` in upstream's canonical string form (`LabelSelectorAsSelector(…).String()`). */
function selectorString(sel: unknown): string {
  if (typeof sel === 'string') return sel;
  return formatLabelSelector(labelSelectorFromObject((sel ?? {}) as LabelSelector));
}

/** The `autoscaling/v1` Scale view of an object. */
export function toScale(
  obj: StoredObject | ApiObject,
  paths: ScalePaths & { selectorFromSpec?: boolean },
): Obj {
  const m = obj.metadata ?? {};
  const selector = paths.selectorFromSpec
    ? selectorString((obj.spec as Obj | undefined)?.selector)
    : paths.labelSelectorPath
      ? getPath(obj as Obj, paths.labelSelectorPath)
      : undefined;
  const replicas = getPath(obj as Obj, paths.specReplicasPath);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      ...(m.namespace ? { namespace: m.namespace } : {}),
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: typeof replicas === 'number' ? { replicas } : {},
    status: {
      replicas: Number(getPath(obj as Obj, paths.statusReplicasPath) ?? 0),
      ...(typeof selector === 'string' && selector !== '' ? { selector } : {}),
    },
  };
}

/**
 * The `/scale` sub-resource (autoscaling/v1 Scale) of Deployments, ReplicaSets, StatefulSets and of custom resources whose
 * CRD declares one: GET shows replicas and selector; PUT and PATCH (JSON or merge patch of the
 * Scale) change `spec.replicas` at the resource's path, through the resource's normal update (so
 * a stale resourceVersion is a 409 and the whole write pipeline runs).
 */
export async function handleScale(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const paths = scalePathsOf(def);
  if (!paths) throw errors.pathNotFound();
  const name = ctx.info.name;
  const key = objectKey(ctx, def, name);
  const { object } = await ctx.server.objects.get(key);
  if (!object) throw errors.notFound(errorTarget(def, name), name);
  const current = toScale(object, paths);
  if (ctx.info.verb === 'get') {
    await writeObject(ctx, 200, current);
    return;
  }
  let wanted: Obj;
  if (ctx.info.verb === 'update') {
    wanted = (await decodeBody(ctx)).value as Obj;
  } else {
    const mt = parseMediaType(ctx.req.headers['content-type'] ?? '');
    const type = mt ? `${mt.type}/${mt.subtype}` : '';
    const text = new TextDecoder().decode(
      await readBody(ctx.req, ctx.server.options.maxRequestBodyBytes, ctx.res),
    );
    if (type === patchMediaTypes.json) wanted = applyJsonPatch(current, parseJsonPatchText(text)) as Obj;
    else if (type === patchMediaTypes.merge || type === patchMediaTypes.strategic) {
      let patch: unknown;
      try {
        patch = JSON.parse(text);
      } catch (e) {
        throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
      }
      wanted = applyMergePatch(current, patch) as Obj;
    } else {
      throw errors.unsupportedMediaType(type, [
        patchMediaTypes.json,
        patchMediaTypes.merge,
        patchMediaTypes.strategic,
      ]);
    }
  }
  const replicas = wanted?.spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw errors.invalid('autoscaling', 'Scale', name, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: `Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0`,
      },
    ]);
  }
  const rv = wanted?.metadata?.resourceVersion;
  const body = (await convertAllToVersion(ctx.server, def, [structuredClone(object)], ctx.version))[0] as Obj;
  setPath(body, paths.specReplicasPath, replicas);
  body.metadata.resourceVersion = rv === undefined || rv === '' ? object.metadata.resourceVersion : rv;
  const updated = await updateObject(ctx, def, 'update', body, undefined);
  if (!updated) throw errors.notFound(errorTarget(def, name), name);
  await writeObject(ctx, 200, toScale(updated, paths));
}
