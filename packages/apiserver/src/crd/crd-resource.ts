import { type ApiObject, type Flavor, nowRfc3339 } from '@orchard/meta';
import { defineResource, type ResourceDefinition } from '../registry/resource.js';
import { prepareCrdForDelete } from './cleanup.js';
import { validateCrd, validateCrdUpdate } from './validate-crd.js';

type Obj = Record<string, any>;

/** The status the server reports for an accepted CRD: names accepted, established, stored versions. */
function crdStatus(obj: ApiObject, previous: Obj | undefined): Obj {
  const spec = (obj.spec ?? {}) as Obj;
  const names = { ...(spec.names ?? {}) } as Obj;
  names.singular ??= String(names.kind ?? '').toLowerCase();
  names.listKind ??= `${names.kind}List`;
  const storage = (spec.versions ?? []).find((v: Obj) => v.storage)?.name;
  const stored = new Set<string>(previous?.storedVersions ?? []);
  if (storage) stored.add(storage);
  const t = nowRfc3339();
  const cond = (type: string, reason: string, message: string) => {
    const prev = (previous?.conditions ?? []).find((c: Obj) => c.type === type);
    return {
      type,
      status: 'True',
      lastTransitionTime: prev?.status === 'True' ? prev.lastTransitionTime : t,
      reason,
      message,
    };
  };
  const server = new Set(['NamesAccepted', 'Established']);
  return {
    conditions: [
      cond('NamesAccepted', 'NoConflicts', 'no conflicts found'),
      cond('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
      // Conditions other controllers own (the deletion cleanup's `Terminating`) are kept.
      ...(previous?.conditions ?? []).filter((c: Obj) => !server.has(c.type)),
    ],
    acceptedNames: names,
    storedVersions: [...stored],
  };
}

/**
 * `customresourcedefinitions` in `apiextensions.<domain>/v1` (cluster-scoped, with `/status`).
 * Writes are validated (structural schemas required, with the reasons when not); the status is
 * the server's. The CRD controller turns stored CRDs into served resources.
 */
export function customResourceDefinitions(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: flavor.group('apiextensions'),
    versions: ['v1'],
    resource: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
    validateName: () => [],
    strategy: {
      prepareForCreate(obj) {
        obj.metadata = { ...obj.metadata, generation: 1 };
        obj.status = crdStatus(obj, undefined);
      },
      prepareForUpdate(obj, old, ctx) {
        if (ctx.subresource === 'status') {
          obj.spec = structuredClone(old.spec);
          return;
        }
        const gen = Number(old.metadata.generation ?? 1);
        const changed = JSON.stringify(obj.spec) !== JSON.stringify(old.spec);
        obj.metadata = { ...obj.metadata, generation: changed ? gen + 1 : gen };
        obj.status = crdStatus(obj, old.status as Obj | undefined);
      },
      validate(obj, ctx) {
        return validateCrd(obj as Obj, ctx.flavor);
      },
      validateUpdate(obj, old, ctx) {
        return validateCrdUpdate(obj as Obj, old as Obj, ctx.flavor);
      },
      prepareForDelete(obj, ctx) {
        prepareCrdForDelete(obj, ctx.flavor);
      },
    },
  });
}
