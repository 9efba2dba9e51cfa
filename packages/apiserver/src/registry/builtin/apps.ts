/**
 * The apps/v1 kinds besides Deployment: ReplicaSet, StatefulSet, DaemonSet. Served as upstream
 * serves them (schema, defaults, validation, `/status`, `/scale`); no controller runs them here.
 */
import type { ResourceDefinition } from '../resource.js';
import { defineResource } from '../resource.js';
import { statusSubresourceStrategy } from '../status-strategy.js';
import { setReplicaSetDefaults } from './defaults.js';
import { setDaemonSetDefaults, setStatefulSetDefaults } from './defaults-more.js';
import { withGeneration } from './generation.js';
import {
  validateDaemonSet,
  validateStatefulSet,
  validateStatefulSetUpdate,
} from './validation/more-kinds.js';
import { validateWorkloadSpec, validateWorkloadSpecUpdate } from './validation/workload.js';

const statusSub = { name: 'status', verbs: ['get', 'patch', 'update'] } as const;
const scaleSub = {
  name: 'scale',
  kind: 'Scale',
  group: 'autoscaling',
  version: 'v1',
  verbs: ['get', 'patch', 'update'],
} as const;

/**
 * `replicasets` (apps v1, namespaced) with `/status` and `/scale`: one replica by default, a
 * selector that matches the template's labels and never changes, `status.replicas` 0 on create.
 * (Upstream's ReplicaSet validation says "empty selector is invalid for deployment", verbatim.)
 */
export const replicaSets: ResourceDefinition = defineResource({
  group: 'apps',
  versions: ['v1'],
  resource: 'replicasets',
  kind: 'ReplicaSet',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  subresources: [statusSub, scaleSub],
  strategy: statusSubresourceStrategy(
    withGeneration({
      prepareForCreate: setReplicaSetDefaults,
      prepareForUpdate: setReplicaSetDefaults,
      validate: (obj) => validateWorkloadSpec(obj.spec, 'Deployment'),
      validateUpdate: (obj, old, ctx) =>
        ctx.subresource === 'status' ? [] : validateWorkloadSpecUpdate(obj.spec, old.spec, 'Deployment'),
    }),
    { initialStatus: () => ({ replicas: 0 }) },
  ),
});

/**
 * `statefulsets` (apps v1, namespaced, `sts`) with `/status` and `/scale`: upstream's defaults
 * (OrderedReady, RollingUpdate partition 0, Retain claims), and only replicas, ordinals, template,
 * updateStrategy, the claim retention policy and minReadySeconds may change.
 */
export const statefulSets: ResourceDefinition = defineResource({
  group: 'apps',
  versions: ['v1'],
  resource: 'statefulsets',
  kind: 'StatefulSet',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  subresources: [statusSub, scaleSub],
  strategy: statusSubresourceStrategy(
    withGeneration({
      prepareForCreate: setStatefulSetDefaults,
      prepareForUpdate: setStatefulSetDefaults,
      validate: (obj) => validateStatefulSet(obj),
      validateUpdate: (obj, old, ctx) =>
        ctx.subresource === 'status' ? [] : validateStatefulSetUpdate(obj, old),
    }),
    { initialStatus: () => ({ replicas: 0, availableReplicas: 0 }) },
  ),
});

/**
 * `daemonsets` (apps v1, namespaced, `ds`) with `/status`: RollingUpdate with maxUnavailable 1 by
 * default, a selector matching the template that never changes.
 */
export const daemonSets: ResourceDefinition = defineResource({
  group: 'apps',
  versions: ['v1'],
  resource: 'daemonsets',
  kind: 'DaemonSet',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  subresources: [statusSub],
  strategy: statusSubresourceStrategy(
    withGeneration({
      prepareForCreate: setDaemonSetDefaults,
      prepareForUpdate: setDaemonSetDefaults,
      validate: (obj) => validateDaemonSet(obj),
      validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? [] : validateDaemonSet(obj, old)),
    }),
    {
      initialStatus: () => ({
        currentNumberScheduled: 0,
        numberMisscheduled: 0,
        desiredNumberScheduled: 0,
        numberReady: 0,
      }),
    },
  ),
});
