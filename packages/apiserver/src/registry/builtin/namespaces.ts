import { type ApiObject, type Flavor, nameIsDnsLabel } from '@orchard/meta';
import { defineResource, type ResourceDefinition } from '../resource.js';

/** The label every namespace carries with its own name: `kubernetes.io/metadata.name` / `orch.io/metadata.name`. */
export function namespaceNameLabel(flavor: Flavor): string {
  return `${flavor.name === 'kubernetes' ? 'kubernetes.io' : flavor.domain}/metadata.name`;
}

/** Upstream sets the label on create and again on every update, so it cannot be changed or removed. */
function setNameLabel(obj: ApiObject, flavor: Flavor): void {
  const meta = obj.metadata;
  if (!meta?.name) return;
  meta.labels = { ...meta.labels, [namespaceNameLabel(flavor)]: meta.name };
}

/** `namespaces` (core v1, cluster-scoped). New namespaces get the flavor's finalizer and phase Active. */
export const namespaces: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'namespaces',
  returnDeletedObject: true,
  kind: 'Namespace',
  namespaced: false,
  shortNames: ['ns'],
  // Upstream's namespace storage has no DeleteCollection: every verb but that one.
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [
    { name: 'status', verbs: ['get', 'patch', 'update'] },
    { name: 'finalize', verbs: ['update'] },
  ],
  validateName: nameIsDnsLabel,
  strategy: {
    prepareForCreate(obj, ctx) {
      const spec = (obj.spec ?? {}) as { finalizers?: string[] };
      if (!spec.finalizers?.includes(ctx.flavor.namespaceFinalizer)) {
        spec.finalizers = [...(spec.finalizers ?? []), ctx.flavor.namespaceFinalizer];
      }
      obj.spec = spec;
      obj.status = { phase: 'Active' };
      setNameLabel(obj, ctx.flavor);
    },
    prepareForUpdate(obj, old, ctx) {
      // The main resource cannot change status or spec.finalizers (those go through /status and /finalize).
      if (ctx.subresource === '') {
        obj.status = old.status;
        obj.spec = old.spec;
      } else if (ctx.subresource === 'status') {
        obj.spec = old.spec;
      } else if (ctx.subresource === 'finalize') {
        obj.status = old.status;
      }
      setNameLabel(obj, ctx.flavor);
    },
    selectableFields(obj) {
      return { 'status.phase': String((obj.status as { phase?: string } | undefined)?.phase ?? '') };
    },
  },
});
