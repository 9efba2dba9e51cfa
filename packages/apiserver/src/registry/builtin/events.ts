import { nameIsPathSegment } from '@orchard/meta';
import { defineResource, type ResourceDefinition } from '../resource.js';

/** `events` (core v1, namespaced). PUT creates (upstream `AllowCreateOnUpdate`); names are path segments. */
export const events: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'events',
  kind: 'Event',
  namespaced: true,
  shortNames: ['ev'],
  allowCreateOnUpdate: true,
  validateName: nameIsPathSegment,
  strategy: {
    selectableFields(obj) {
      const io = (obj.involvedObject ?? {}) as Record<string, unknown>;
      const src = (obj.source ?? {}) as Record<string, unknown>;
      const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));
      return {
        'involvedObject.kind': s(io.kind),
        'involvedObject.namespace': s(io.namespace),
        'involvedObject.name': s(io.name),
        'involvedObject.uid': s(io.uid),
        'involvedObject.apiVersion': s(io.apiVersion),
        'involvedObject.resourceVersion': s(io.resourceVersion),
        'involvedObject.fieldPath': s(io.fieldPath),
        reason: s(obj.reason),
        reportingComponent: s(obj.reportingComponent),
        source: s(src.component),
        type: s(obj.type),
      };
    },
  },
});
