import { errors, type Flavor, type StoredObject } from '@orchard/meta';
import { fromOpenApi, type StructuralSchema } from '@orchard/schema';
import type { WriteStep } from '../handlers/write-pipeline.js';
import { defineResource, type ResourceDefinition, type SubresourceDefinition } from '../registry/resource.js';
import { statusSubresourceStrategy } from '../registry/status-strategy.js';
import { type PrinterColumn, registerCustomResource, type ScalePaths } from '../schema/schemas.js';
import type { ServerState } from '../state.js';
import { crdCleanupFinalizer, createCrdCleanup } from './cleanup.js';
import { webhookConfigOf } from './conversion-webhook.js';
import { registerCrdRules } from './validation-rules.js';

type Obj = Record<string, any>;

/** Upstream's version priority: GA > beta > alpha, higher numbers first, then other names. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0, v] as const;
    const level = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [level, Number(m[1]), Number(m[3] ?? 0), v] as const;
  };
  const [la, ma, na, sa] = parse(a);
  const [lb, mb, nb, sb] = parse(b);
  if (la !== lb) return lb - la;
  if (la === 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  if (ma !== mb) return mb - ma;
  return nb - na;
}

/** The served resource of a stored CRD. */
export function definitionFromCrd(crd: Obj, flavor: Flavor): ResourceDefinition {
  const spec: Obj = crd.spec;
  const names: Obj = spec.names;
  const versions: Obj[] = spec.versions ?? [];
  const served = versions
    .filter((v) => v.served)
    .map((v) => v.name as string)
    .sort(compareVersions);
  const storageVersion: string = versions.find((v) => v.storage)?.name;
  const schemas = new Map<string, StructuralSchema>();
  const printerColumns = new Map<string, PrinterColumn[]>();
  let status = false;
  let scale: ScalePaths | undefined;
  for (const v of versions) {
    const s = fromOpenApi(v.schema?.openAPIV3Schema ?? { type: 'object' }, flavor);
    if (spec.preserveUnknownFields === true) s.preserveUnknownFields = true;
    schemas.set(v.name, s);
    printerColumns.set(v.name, v.additionalPrinterColumns ?? []);
    if (v.served && v.subresources?.status !== undefined) status = true;
    if (v.served && v.subresources?.scale) scale = v.subresources.scale;
  }
  const deprecations = new Map<string, string>();
  const preferred = versions
    .filter((v) => v.served && !v.deprecated)
    .map((v) => v.name as string)
    .sort(compareVersions)[0];
  for (const v of versions) {
    if (!v.served || !v.deprecated) continue;
    const text =
      v.deprecationWarning ??
      `${spec.group}/${v.name} ${names.kind} is deprecated${preferred ? `; use ${spec.group}/${preferred} ${names.kind}` : ''}`;
    deprecations.set(v.name, text);
  }
  const webhook = webhookConfigOf(crd);
  const subresources: SubresourceDefinition[] = [];
  if (status) subresources.push({ name: 'status', verbs: ['get', 'patch', 'update'] });
  if (scale) {
    subresources.push({
      name: 'scale',
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
      verbs: ['get', 'patch', 'update'],
    });
  }
  const def = defineResource({
    group: spec.group,
    versions: served,
    resource: names.plural,
    singular: names.singular ?? String(names.kind).toLowerCase(),
    kind: names.kind,
    listKind: names.listKind ?? `${names.kind}List`,
    namespaced: spec.scope === 'Namespaced',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    subresources,
    strategy: status ? statusSubresourceStrategy() : {},
  });
  registerCustomResource(def, {
    schemas,
    storageVersion,
    printerColumns,
    crdName: crd.metadata.name,
    ...(scale ? { scale } : {}),
    ...(deprecations.size > 0 ? { deprecations } : {}),
    ...(webhook ? { webhook } : {}),
  });
  registerCrdRules(def, crd, flavor);
  return def;
}

/**
 * Serves the resources of stored CRDs: lists them at start, then follows the store's events.
 * A created or changed CRD (re)registers its resource — discovery, OpenAPI and every verb follow
 * the registry at once. A Terminating CRD is handed to the cleanup (`cleanup.ts`: its instances are
 * deleted, then its finalizer removed) and refuses creates; once the CRD is gone its resource is
 * unregistered. Resolves once the CRDs already stored are served; runs until `signal` aborts.
 */
export async function startCrdController(state: ServerState, signal: AbortSignal): Promise<void> {
  const group = state.flavor.group('apiextensions');
  const prefix = state.objects.prefix({ group, resource: 'customresourcedefinitions', namespace: '' });
  const served = new Map<string, { group: string; resource: string }>();
  /** `<group>/<resource>` of the CRDs being deleted. */
  const terminating = new Set<string>();
  const cleanup = createCrdCleanup(state);
  signal.addEventListener('abort', () => void cleanup.stop(), { once: true });
  const pipeline = state.writePipeline;
  if (!pipeline.names().includes('crd-terminating')) {
    const step: WriteStep = {
      name: 'crd-terminating',
      operations: ['create'],
      run: (w) => {
        // Upstream's custom resource handler: no new instances while the cleanup deletes them.
        if (terminating.has(`${w.def.group}/${w.def.resource}`))
          throw errors.methodNotAllowed('create not allowed while custom resource definition is terminating');
      },
    };
    const first = pipeline.names()[0];
    if (first === undefined) pipeline.append(step);
    else pipeline.insertBefore(first, step);
  }

  const apply = (crd: StoredObject) => {
    try {
      const def = definitionFromCrd(crd as Obj, state.flavor);
      const prev = served.get(crd.metadata.name ?? '');
      if (prev && (prev.group !== def.group || prev.resource !== def.resource)) {
        state.registry.remove(prev.group, prev.resource);
        terminating.delete(`${prev.group}/${prev.resource}`);
      }
      state.registry.add(def);
      served.set(crd.metadata.name ?? '', { group: def.group, resource: def.resource });
      if (crd.metadata.deletionTimestamp) terminating.add(`${def.group}/${def.resource}`);
      else terminating.delete(`${def.group}/${def.resource}`);
    } catch (e) {
      state.log.error(`cannot serve CustomResourceDefinition ${crd.metadata.name}`, e);
    }
    if (
      crd.metadata.deletionTimestamp &&
      (crd.metadata.finalizers ?? []).includes(crdCleanupFinalizer(state.flavor))
    )
      cleanup.add(crd.metadata.name ?? '');
  };
  // The instances were deleted by the cleanup before the CRD went (a CRD removed otherwise leaves
  // them in storage, as upstream; they are served again if the CRD comes back).
  const remove = (crd: StoredObject) => {
    const prev = served.get(crd.metadata.name ?? '');
    if (!prev) return;
    served.delete(crd.metadata.name ?? '');
    terminating.delete(`${prev.group}/${prev.resource}`);
    state.registry.remove(prev.group, prev.resource);
  };

  const initial = await state.objects.list(prefix);
  for (const crd of initial.items) apply(crd);
  void (async () => {
    try {
      for await (const ev of state.objects.watch(prefix, initial.revision, signal)) {
        if (ev.type === 'DELETED') remove(ev.object);
        else apply(ev.object);
      }
    } catch (e) {
      if (!signal.aborted) state.log.error('the CRD controller stopped', e);
    }
  })();
}
