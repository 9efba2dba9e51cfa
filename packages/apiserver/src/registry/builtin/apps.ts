/**
 * The apps/v1 kinds besides Deployment: ReplicaSet, StatefulSet, DaemonSet. Served as upstream
 * serves them (schema, defaults, validation, `/status`, `/scale`); no controller runs them here.
 */
import type { ResourceDefinition } from '../resource.js';
import { defineResource } from '../resource.js';
import { statusSubresourceStrategy } from '../status-strategy.js';
import { setReplicaSetDefaults } from './defaults.js';
import { withGeneration } from './generation.js';
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
