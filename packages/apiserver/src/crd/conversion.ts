import { type ApiObject, formatApiVersion, parseApiVersion } from '@orchard/meta';
import type { RequestContext } from '../context.js';
import type { WriteRequest, WriteStep } from '../handlers/write-pipeline.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { customResourceInfo } from '../schema/schemas.js';
import type { ServerState } from '../state.js';
import {
  type ConversionWebhookConfig,
  createWebhookConverter,
  type WebhookConverter,
} from './conversion-webhook.js';

/**
 * Converts a custom resource between versions of its CRD. It gets a copy it may mutate and must
 * return the object with `apiVersion` = `toApiVersion` (or a promise of it). The default (`None`
 * strategy, or the CRD's conversion webhook) applies when none is plugged in. The field manager's
 * comparison across versions uses only a synchronous answer (else it compares at the request's version).
 */
export type CustomResourceConverter = (
  obj: ApiObject,
  toApiVersion: string,
  ctx: { readonly def: ResourceDefinition; readonly fromApiVersion: string },
) => ApiObject | Promise<ApiObject>;

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
  // Synchronous callers (the field manager) compare a webhook-converted resource at the request's
  // version: only apiVersion is rewritten.
  const convert = converters.get(`${def.group}/${def.kind}`) ?? noneConverter;
  const out = convert(structuredClone(obj), to, { def, fromApiVersion: from });
  return out instanceof Promise ? { ...obj, apiVersion: to } : out;
}

/** Whether `obj` needs converting to `version` of `def` (same group and kind, another version). */
function needsConversion(def: ResourceDefinition, obj: unknown, to: string): obj is ApiObject {
  if (typeof obj !== 'object' || obj === null) return false;
  const o = obj as ApiObject;
  const from = String(o.apiVersion ?? '');
  return from !== to && o.kind === def.kind && parseApiVersion(from).group === def.group;
}

/**
 * The objects at `version`, in order, converting asynchronously where the resource needs it: a
 * plugged-in converter (awaited), else the CRD's conversion webhook (one `ConversionReview` for all
 * objects of one source version), else `convertToVersion`. Rejects with the webhook's error Status.
 */
export async function convertAllToVersion(
  state: ServerState,
  def: ResourceDefinition,
  objects: readonly ApiObject[],
  version: string,
): Promise<ApiObject[]> {
  const info = customResourceInfo(def);
  const to = formatApiVersion({ group: def.group, version });
  const plugged = state.converters.get(`${def.group}/${def.kind}`);
  if (!info || (!plugged && !info.webhook))
    return objects.map((o) => convertToVersion(state.converters, def, o, version));
  if (plugged) {
    return Promise.all(
      objects.map(async (o) =>
        needsConversion(def, o, to)
          ? plugged(structuredClone(o), to, { def, fromApiVersion: String(o.apiVersion) })
          : o,
      ),
    );
  }
  const out = [...objects];
  const bySource = new Map<string, number[]>();
  objects.forEach((o, i) => {
    if (!needsConversion(def, o, to)) return;
    const from = String(o.apiVersion);
    bySource.set(from, [...(bySource.get(from) ?? []), i]);
  });
  const webhook = webhookConverterFor(info.webhook as ConversionWebhookConfig, state);
  for (const indexes of bySource.values()) {
    const converted = await webhook(
      indexes.map((i) => objects[i] as ApiObject),
      to,
    );
    indexes.forEach((i, j) => {
      out[i] = converted[j] as ApiObject;
    });
  }
  return out;
}

/**
 * Each server's webhook clients, one per configuration (CRDs re-register on every change): held by
 * the server's state, so two servers in one process never share a client.
 */
const webhookClientsByServer = new WeakMap<ServerState, Map<string, WebhookConverter>>();

function webhookConverterFor(config: ConversionWebhookConfig, state: ServerState): WebhookConverter {
  const timeoutMs = state.options.conversionWebhookTimeoutMs;
  const key = JSON.stringify([
    config.url,
    config.caBundle ?? '',
    config.reviewVersions,
    timeoutMs,
    state.flavor.name,
  ]);
  let webhookClients = webhookClientsByServer.get(state);
  if (!webhookClients) {
    webhookClients = new Map();
    webhookClientsByServer.set(state, webhookClients);
  }
  let c = webhookClients.get(key);
  if (!c) {
    if (webhookClients.size >= 64) webhookClients.delete(webhookClients.keys().next().value as string);
    c = createWebhookConverter(config, state.flavor, { timeoutMs });
    webhookClients.set(key, c);
  }
  return c;
}

/** Whether converting a value of `def` may need `convertAllToVersion` (a webhook or plugged-in converter). */
function convertsAsynchronously(state: ServerState, def: ResourceDefinition): boolean {
  const info = customResourceInfo(def);
  return (
    info !== undefined && (info.webhook !== undefined || state.converters.has(`${def.group}/${def.kind}`))
  );
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
 * the deprecation warning of a deprecated custom resource version. A promise when the conversion
 * is asynchronous (a CRD's conversion webhook or an asynchronous plugged-in converter).
 */
export function convertForResponse(ctx: RequestContext, value: unknown): unknown | Promise<unknown> {
  const def = ctx.def;
  if (!def || typeof value !== 'object' || value === null) return value;
  const info = customResourceInfo(def);
  if (!info && !isMultiVersion(def)) return value;
  // Every response from a deprecated version carries the CRD's deprecation warning.
  const deprecation = info?.deprecations?.get(ctx.version);
  if (deprecation && !ctx.warnings.includes(deprecation)) ctx.warnings.push(deprecation);
  const v = value as ApiObject & { items?: unknown[] };
  if (convertsAsynchronously(ctx.server, def)) {
    if (v.kind === def.listKind && Array.isArray(v.items))
      return convertAllToVersion(ctx.server, def, v.items as ApiObject[], ctx.version).then((items) => ({
        ...v,
        items,
      }));
    return convertAllToVersion(ctx.server, def, [v], ctx.version).then(([o]) => o);
  }
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
  // Synchronous for a create and for a built-in type with one version: no promise on their write path.
  run: (w) => (w.old && (customResourceInfo(w.def) || isMultiVersion(w.def)) ? convertIn(w) : undefined),
};

async function convertIn(w: WriteRequest): Promise<void> {
  if (!w.old) return;
  const [old] = await convertAllToVersion(w.ctx.server, w.def, [w.old], w.ctx.version);
  w.old = old as typeof w.old;
}

/** `version-out`: objects are stored at the storage version (a custom resource's: its CRD's). */
export const versionOutStep: WriteStep = {
  name: 'version-out',
  operations: ['create', 'update', 'patch'],
  // Synchronous for a built-in type with one version: no promise on its write path.
  run: (w) => (customResourceInfo(w.def) || isMultiVersion(w.def) ? convertOut(w) : undefined),
};

async function convertOut(w: WriteRequest): Promise<void> {
  const [obj] = await convertAllToVersion(w.ctx.server, w.def, [w.obj], storageVersionOf(w.def));
  w.obj = obj as ApiObject;
}
