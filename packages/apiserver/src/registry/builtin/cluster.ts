/**
 * core/v1 ReplicationController, Endpoints, PersistentVolumeClaim, PersistentVolume, ResourceQuota and Node,
 * discovery EndpointSlice and networking Ingress: stored, defaulted and validated as upstream
 * does; no controller acts on them (a node agent issue adds Node behaviour).
 */
import { type ApiObject, type Flavor, fieldErrors, type StatusCause } from '@orchard/meta';
import { defineResource, type ResourceDefinition, type ResourceStrategy } from '../resource.js';
import { statusSubresourceStrategy } from '../status-strategy.js';
import {
  setEndpointSliceDefaults,
  setEndpointsDefaults,
  setPersistentVolumeClaimDefaults,
  setPersistentVolumeDefaults,
  setReplicationControllerDefaults,
} from './defaults-more.js';
import { withGeneration } from './generation.js';
import {
  validateEndpointSlice,
  validateEndpoints,
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimUpdate,
  validateReplicationController,
} from './validation/more-kinds.js';

const statusSub = { name: 'status', verbs: ['get', 'patch', 'update'] } as const;

/** `replicationcontrollers` (core v1, `rc`) with `/status`: selector and labels default from the template. */
export const replicationControllers: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'replicationcontrollers',
  kind: 'ReplicationController',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  subresources: [statusSub],
  strategy: statusSubresourceStrategy(
    withGeneration({
      prepareForCreate: setReplicationControllerDefaults,
      prepareForUpdate: setReplicationControllerDefaults,
      validate: (obj) => validateReplicationController(obj),
      validateUpdate: (obj, _old, ctx) =>
        ctx.subresource === 'status' ? [] : validateReplicationController(obj),
    }),
    { initialStatus: () => ({ replicas: 0 }) },
  ),
});

/** `endpoints` (core v1, `ep`); a PUT may create, as upstream allows. */
export const endpoints: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'endpoints',
  kind: 'Endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  allowCreateOnUpdate: true,
  strategy: {
    prepareForCreate: setEndpointsDefaults,
    prepareForUpdate: setEndpointsDefaults,
    validate: (obj) => validateEndpoints(obj),
  },
});

/** `endpointslices` (group `discovery.<domain>` v1); the address type is required and immutable. */
export function endpointSlices(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: flavor.group('discovery'),
    versions: ['v1'],
    resource: 'endpointslices',
    kind: 'EndpointSlice',
    namespaced: true,
    strategy: withGeneration({
      prepareForCreate: setEndpointSliceDefaults,
      prepareForUpdate: setEndpointSliceDefaults,
      validate: (obj) => validateEndpointSlice(obj),
      validateUpdate: (obj, old) => validateEndpointSlice(obj, old),
    }),
  });
}

/** `persistentvolumeclaims` (core v1, `pvc`) with `/status`; phase Pending on create. */
export const persistentVolumeClaims: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
  namespaced: true,
  shortNames: ['pvc'],
  returnDeletedObject: true,
  subresources: [statusSub],
  strategy: statusSubresourceStrategy({
    prepareForCreate: setPersistentVolumeClaimDefaults,
    prepareForUpdate: setPersistentVolumeClaimDefaults,
    validate: (obj) => validatePersistentVolumeClaim(obj),
    validateUpdate: (obj, old, ctx) =>
      ctx.subresource === 'status' ? [] : validatePersistentVolumeClaimUpdate(obj, old),
  }),
});

/** `persistentvolumes` (core v1, cluster-scoped, `pv`) with `/status`; phase Pending on create. */
export const persistentVolumes: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'persistentvolumes',
  kind: 'PersistentVolume',
  namespaced: false,
  shortNames: ['pv'],
  returnDeletedObject: true,
  subresources: [statusSub],
  strategy: statusSubresourceStrategy({
    prepareForCreate: setPersistentVolumeDefaults,
    prepareForUpdate: setPersistentVolumeDefaults,
    validate: (obj) => validatePersistentVolume(obj),
    validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? [] : validatePersistentVolume(obj)),
  }),
});

/** A status strategy that keeps the status a creator sends (a node agent registers its Node with one). */
function keepStatusOnCreate(strategy: ResourceStrategy): ResourceStrategy {
  return {
    ...strategy,
    prepareForCreate(obj: ApiObject, ctx) {
      const status = obj.status;
      strategy.prepareForCreate?.(obj, ctx);
      if (status !== undefined) obj.status = status;
    },
  };
}

/** `nodes` (core v1, cluster-scoped, `no`) with `/status`; the status a creator sends is kept. */
export const nodes: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'nodes',
  kind: 'Node',
  namespaced: false,
  shortNames: ['no'],
  subresources: [statusSub],
  strategy: keepStatusOnCreate(statusSubresourceStrategy()),
});

/** `ingresses` (group `networking.<domain>` v1, `ing`) with `/status`. */
export function ingresses(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: flavor.group('networking'),
    versions: ['v1'],
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    shortNames: ['ing'],
    subresources: [statusSub],
    strategy: statusSubresourceStrategy(withGeneration({})),
  });
}

const quotaScopes = [
  'BestEffort',
  'CrossNamespacePodAffinity',
  'NotBestEffort',
  'NotTerminating',
  'PriorityClass',
  'Terminating',
];

/** ValidateResourceQuotaSpec (the part a client meets): hard quantities not negative, known scopes. */
function validateResourceQuota(obj: ApiObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = (obj.spec ?? {}) as { hard?: Record<string, unknown>; scopes?: unknown[] };
  for (const [name, value] of Object.entries(spec.hard ?? {}))
    if (typeof value === 'string' && value.startsWith('-'))
      causes.push(fieldErrors.invalid(`spec.hard[${name}]`, value, 'must be greater than or equal to 0'));
  for (const [i, scope] of (spec.scopes ?? []).entries())
    if (typeof scope !== 'string' || !quotaScopes.includes(scope))
      causes.push(fieldErrors.notSupported(`spec.scopes[${i}]`, scope, quotaScopes));
  return causes;
}

/** `resourcequotas` (core v1, `quota`) with `/status`: stored and validated; no quota admission counts usage. */
export const resourceQuotas: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
  shortNames: ['quota'],
  subresources: [statusSub],
  strategy: statusSubresourceStrategy({
    validate: (obj) => validateResourceQuota(obj),
    validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? [] : validateResourceQuota(obj)),
  }),
});
