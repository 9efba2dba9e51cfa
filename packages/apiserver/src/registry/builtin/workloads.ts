import type { ApiObject } from '@orchard/meta';
import type { ResourceDefinition } from '../resource.js';
import { defineResource } from '../resource.js';
import { statusSubresourceStrategy } from '../status-strategy.js';
import { setDeploymentDefaults, setPodDefaults, setServiceDefaults } from './defaults.js';
import { withEphemeralContainers } from './pod-ephemeral.js';
import { podQosClass } from './pod-qos.js';
import { validatePodSpec } from './validation/pod-spec.js';
import { validatePodSpecUpdate } from './validation/pod-update.js';
import { validateServiceSpec } from './validation/service.js';
import { validateWorkloadSpec, validateWorkloadSpecUpdate } from './validation/workload.js';

const statusSub = { name: 'status', verbs: ['get', 'patch', 'update'] } as const;

/** `pods` (core v1, namespaced) with `/status`, `/log`, `/ephemeralcontainers`; a new pod starts `Pending`. Schema: @orchard/schema's Pod. */
export const pods: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'pods',
  returnDeletedObject: true,
  kind: 'Pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  subresources: [
    statusSub,
    { name: 'log', verbs: ['get'] },
    { name: 'ephemeralcontainers', verbs: ['get', 'patch', 'update'] },
  ],
  strategy: withEphemeralContainers(
    statusSubresourceStrategy(
      {
        selectableFields: podSelectableFields,
        prepareForCreate: setPodDefaults,
        prepareForUpdate: setPodDefaults,
        validate: (obj) => validatePodSpec(obj.spec, 'spec'),
        validateUpdate: (obj, old, ctx) =>
          ctx.subresource === 'status'
            ? []
            : [...validatePodSpec(obj.spec, 'spec'), ...validatePodSpecUpdate(obj.spec, old.spec)],
      },
      // Defaults first: limits copied into requests decide the class, as upstream's PrepareForCreate sees them.
      {
        initialStatus: (pod) => {
          setPodDefaults(pod);
          return { phase: 'Pending', qosClass: podQosClass(pod) };
        },
      },
    ),
  ),
});

/**
 * The pod fields a field selector may name besides `metadata.name`/`metadata.namespace`, as
 * upstream's `PodToSelectableFields` (a node agent watches `spec.nodeName=<node>`).
 */
function podSelectableFields(obj: ApiObject): Record<string, string> {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const status = (obj.status ?? {}) as Record<string, unknown>;
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const podIPs = Array.isArray(status.podIPs) ? (status.podIPs as { ip?: unknown }[]) : [];
  return {
    'spec.nodeName': str(spec.nodeName),
    'spec.restartPolicy': str(spec.restartPolicy),
    'spec.schedulerName': str(spec.schedulerName),
    'spec.serviceAccountName': str(spec.serviceAccountName),
    'spec.hostNetwork': String(spec.hostNetwork === true),
    'status.phase': str(status.phase),
    // v1 `podIP` is `podIPs[0]` (upstream converts one into the other).
    'status.podIP': str(podIPs[0]?.ip) || str(status.podIP),
    'status.nominatedNodeName': str(status.nominatedNodeName),
  };
}

/** `services` (core v1, namespaced) with `/status`; a PUT may create one, as upstream allows. */
export const services: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'services',
  returnDeletedObject: true,
  kind: 'Service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  allowCreateOnUpdate: true,
  subresources: [statusSub],
  strategy: statusSubresourceStrategy(
    {
      prepareForCreate: setServiceDefaults,
      prepareForUpdate: setServiceDefaults,
      validate: (obj) => validateServiceSpec(obj.spec),
    },
    { initialStatus: () => ({ loadBalancer: {} }) },
  ),
});

/** `deployments` (apps v1, namespaced) with `/status`; generation bumps on spec changes. */
export const deployments: ResourceDefinition = defineResource({
  group: 'apps',
  versions: ['v1'],
  resource: 'deployments',
  kind: 'Deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  subresources: [
    statusSub,
    { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
  ],
  strategy: statusSubresourceStrategy({
    prepareForCreate(obj) {
      setDeploymentDefaults(obj);
      obj.metadata = { ...obj.metadata, generation: 1 };
    },
    prepareForUpdate(obj, old, ctx) {
      setDeploymentDefaults(obj);
      const gen = Number(old.metadata.generation ?? 1);
      const changed = JSON.stringify(obj.spec) !== JSON.stringify(old.spec);
      obj.metadata = { ...obj.metadata, generation: ctx.subresource !== 'status' && changed ? gen + 1 : gen };
    },
    validate: (obj) => validateWorkloadSpec(obj.spec, 'Deployment'),
    validateUpdate: (obj, old, ctx) =>
      ctx.subresource === 'status' ? [] : validateWorkloadSpecUpdate(obj.spec, old.spec, 'Deployment'),
  }),
});
