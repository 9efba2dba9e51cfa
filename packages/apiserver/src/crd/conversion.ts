import { type ApiObject, formatApiVersion, parseApiVersion } from '@orchard/meta';
import type { RequestContext } from '../context.js';
import type { WriteStep } from '../handlers/write-pipeline.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { customResourceInfo } from '../schema/schemas.js';

/**
 * Converts a custom resource between versions of its CRD. It gets a copy it may mutate and must
 * return the object with `apiVersion` = `toApiVersion`. The default (`None` strategy) only
 * rewrites `apiVersion`.
 */
export type CustomResourceConverter = (
  obj: ApiObject,
  toApiVersion: string,
  ctx: { readonly def: ResourceDefinition; readonly fromApiVersion: string },
) => ApiObject;

const noneConverter: CustomResourceConverter = (obj, toApiVersion) => ({ ...obj, apiVersion: toApiVersion });

/** The converters a server has plugged in, by `group/kind`; owned by the server (`ServerState.converters`). */
export type CustomResourceConverters = Map<string, CustomResourceConverter>;

/**
 * Plugs a converter in for the custom resources of `group`/`kind` served by `server` (used for
 * every version change: reads at a non-storage version, writes converted to the storage version);
 * `undefined` restores the `None` strategy. Same as `server.setCustomResourceConverter(…)`.
 */
export function setCustomResourceConverter(
  server: {
    setCustomResourceConverter(
      group: string,
      kind: string,
      converter: CustomResourceConverter | undefined,
    ): void;
  },
  group: string,
  kind: string,
  converter: CustomResourceConverter | undefined,
): void {
  server.setCustomResourceConverter(group, kind, converter);
}

/** Whether objects of `def` may be stored or asked for at more than one version. */
function isMultiVersion(def: ResourceDefinition): boolean {
  return def.versions.length > 1 || def.storageVersion !== undefined || def.convert !== undefined;
}

/** The version objects of `def` are stored at (the CRD's storage version for custom resources). */
export function storageVersionOf(def: ResourceDefinition): string {
  return customResourceInfo(def)?.storageVersion ?? def.storageVersion ?? def.versions[0] ?? '';
}

/**
 * The object at `version`: a custom resource through its converter, a multi-version built-in
 * through `def.convert` (hub-and-spoke via the storage version); unchanged when already there, for
 * objects of another group or kind and for single-version built-ins.
 */
export function convertToVersion(
  converters: CustomResourceConverters,
  def: ResourceDefinition,
  obj: ApiObject,
  version: string,
): ApiObject {
  if (typeof obj !== 'object' || obj === null) return obj;
  const info = customResourceInfo(def);
  if (!info && !isMultiVersion(def)) return obj;
  const from = String(obj.apiVersion ?? '');
  const to = formatApiVersion({ group: def.group, version });
  if (from === to || obj.kind !== def.kind) return obj;
  if (parseApiVersion(from).group !== def.group) return obj;
  if (!info) {
    if (def.convert) return def.convert(structuredClone(obj), version);
    return { ...obj, apiVersion: to };
  }
  const convert = converters.get(`${def.group}/${def.kind}`) ?? noneConverter;
  return convert(structuredClone(obj), to, { def, fromApiVersion: from });
}

/**
 * The field manager's converter for `def` (structured-merge-diff's `VersionConverter`): the object
 * at another `<group>/<version>`, so a manager that wrote at another version is compared there;
 * undefined when the conversion fails (that manager's entry is then dropped, as upstream).
 */
export function fieldManagerConverter(
  converters: CustomResourceConverters,
  def: ResourceDefinition,
): ((object: unknown, apiVersion: string) => unknown) | undefined {
  if (!customResourceInfo(def) && !isMultiVersion(def)) return undefined;
  return (object, apiVersion) => {
    const gv = parseApiVersion(apiVersion);
    if (gv.group !== def.group) return undefined;
    try {
      return convertToVersion(converters, def, object as ApiObject, gv.version);
    } catch {
      return undefined;
    }
  };
}

/**
 * A response value (object, list, watch event object) at the version the request addressed; adds
 * the deprecation warning of a deprecated custom resource version.
 */
export function convertForResponse(ctx: RequestContext, value: unknown): unknown {
  const def = ctx.def;
  if (!def || typeof value !== 'object' || value === null) return value;
  const info = customResourceInfo(def);
  if (!info && !isMultiVersion(def)) return value;
  // Every response from a deprecated version carries the CRD's deprecation warning.
  const deprecation = info?.deprecations?.get(ctx.version);
  if (deprecation && !ctx.warnings.includes(deprecation)) ctx.warnings.push(deprecation);
  const v = value as ApiObject & { items?: unknown[] };
  if (v.kind === def.listKind && Array.isArray(v.items)) {
    return {
      ...v,
      items: v.items.map((i) => convertToVersion(ctx.server.converters, def, i as ApiObject, ctx.version)),
    };
  }
  return convertToVersion(ctx.server.converters, def, v, ctx.version);
}

/** `version-in`: the current object at the request's version before a patch or update sees it. */
export const versionInStep: WriteStep = {
  name: 'version-in',
  operations: ['update', 'patch'],
  run(w) {
    if (w.old && (customResourceInfo(w.def) || isMultiVersion(w.def))) {
      w.old = convertToVersion(w.ctx.server.converters, w.def, w.old, w.ctx.version) as typeof w.old;
    }
  },
};

/** `version-out`: objects are stored at the storage version (a custom resource's: its CRD's). */
export const versionOutStep: WriteStep = {
  name: 'version-out',
  operations: ['create', 'update', 'patch'],
  run(w) {
    if (customResourceInfo(w.def) || isMultiVersion(w.def))
      w.obj = convertToVersion(w.ctx.server.converters, w.def, w.obj, storageVersionOf(w.def));
  },
};
