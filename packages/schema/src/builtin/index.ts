/**
 * Schemas of the built-in kinds the reference server serves, as structural data with the
 * upstream merge markers and descriptions good enough for `kubectl explain`.
 */
import type { Flavor } from '@orchard/meta';
import type { StructuralSchema } from '../structural.js';
import { customResourceDefinitionSchema } from './apiextensions.js';
import { deploymentSchema, replicaSetSchema } from './apps.js';
import { daemonSetSchema, statefulSetSchema } from './apps-sets.js';
import { horizontalPodAutoscalerV2beta1Schema, horizontalPodAutoscalerV2Schema } from './autoscaling.js';
import { cronJobSchema, jobSchema } from './batch.js';
import {
  endpointSliceSchema,
  endpointsSchema,
  ingressSchema,
  nodeSchema,
  replicationControllerSchema,
} from './cluster.js';
import { leaseSchema } from './coordination.js';
import {
  configMapSchema,
  eventSchema,
  namespaceSchema,
  podSchema,
  secretSchema,
  serviceAccountSchema,
  serviceSchema,
} from './core.js';
import { clusterRoleBindingSchema, clusterRoleSchema, roleBindingSchema, roleSchema } from './rbac.js';
import { persistentVolumeClaimSchema, persistentVolumeSchema, resourceQuotaSchema } from './storage.js';

/** A built-in kind: group, version, kind, resource, scope and sub-resources. */
export interface BuiltinType {
  /** Group prefix: `''` for core, `apps`, or a name the flavor qualifies (`coordination` → `coordination.k8s.io`). */
  groupPrefix: string;
  /** Whether the group is qualified by the flavor's domain. */
  qualified: boolean;
  version: string;
  kind: string;
  /** The plural resource name. */
  resource: string;
  namespaced: boolean;
  /** Whether the kind has a `/status` sub-resource. */
  status: boolean;
  schema: StructuralSchema;
}

/** A compact row: `group` is `''`, a plain group (`apps`) or `<prefix>.*` for one under the flavor's domain. */
function row(
  group: string,
  kind: string,
  resource: string,
  scope: 'Namespaced' | 'Cluster',
  status: boolean,
  schema: StructuralSchema,
  version = 'v1',
): BuiltinType {
  const qualified = group.endsWith('.*');
  return {
    groupPrefix: qualified ? group.slice(0, -2) : group,
    qualified,
    version,
    kind,
    resource,
    namespaced: scope === 'Namespaced',
    status,
    schema,
  };
}

const table: BuiltinType[] = [
  row('apps', 'ReplicaSet', 'replicasets', 'Namespaced', true, replicaSetSchema),
  row('batch', 'Job', 'jobs', 'Namespaced', true, jobSchema),
  row('batch', 'CronJob', 'cronjobs', 'Namespaced', true, cronJobSchema),
  row('batch', 'CronJob', 'cronjobs', 'Namespaced', true, cronJobSchema, 'v1beta1'),
  row(
    'autoscaling',
    'HorizontalPodAutoscaler',
    'horizontalpodautoscalers',
    'Namespaced',
    true,
    horizontalPodAutoscalerV2Schema,
    'v2',
  ),
  row(
    'autoscaling',
    'HorizontalPodAutoscaler',
    'horizontalpodautoscalers',
    'Namespaced',
    true,
    horizontalPodAutoscalerV2Schema,
    'v2beta2',
  ),
  row(
    'autoscaling',
    'HorizontalPodAutoscaler',
    'horizontalpodautoscalers',
    'Namespaced',
    true,
    horizontalPodAutoscalerV2beta1Schema,
    'v2beta1',
  ),
  row('apps', 'StatefulSet', 'statefulsets', 'Namespaced', true, statefulSetSchema),
  row('apps', 'DaemonSet', 'daemonsets', 'Namespaced', true, daemonSetSchema),
  row('', 'ReplicationController', 'replicationcontrollers', 'Namespaced', true, replicationControllerSchema),
  row('', 'Endpoints', 'endpoints', 'Namespaced', false, endpointsSchema),
  row('discovery.*', 'EndpointSlice', 'endpointslices', 'Namespaced', false, endpointSliceSchema),
  row('', 'PersistentVolumeClaim', 'persistentvolumeclaims', 'Namespaced', true, persistentVolumeClaimSchema),
  row('', 'PersistentVolume', 'persistentvolumes', 'Cluster', true, persistentVolumeSchema),
  row('', 'ResourceQuota', 'resourcequotas', 'Namespaced', true, resourceQuotaSchema),
  row('', 'Node', 'nodes', 'Cluster', true, nodeSchema),
  row('networking.*', 'Ingress', 'ingresses', 'Namespaced', true, ingressSchema),
  {
    groupPrefix: '',
    qualified: false,
    version: 'v1',
    kind: 'Namespace',
    resource: 'namespaces',
    namespaced: false,
    status: true,
    schema: namespaceSchema,
  },
  {
    groupPrefix: '',
    qualified: false,
    version: 'v1',
    kind: 'ConfigMap',
    resource: 'configmaps',
    namespaced: true,
    status: false,
    schema: configMapSchema,
  },
  {
    groupPrefix: '',
    qualified: false,
    version: 'v1',
    kind: 'Secret',
    resource: 'secrets',
    namespaced: true,
    status: false,
    schema: secretSchema,
  },
  {
    groupPrefix: '',
    qualified: false,
    version: 'v1',
    kind: 'ServiceAccount',
    resource: 'serviceaccounts',
    namespaced: true,
    status: false,
    schema: serviceAccountSchema,
  },
  {
    groupPrefix: '',
    qualified: false,
    version: 'v1',
    kind: 'Event',
    resource: 'events',
    namespaced: true,
    status: false,
    schema: eventSchema,
  },
  {
    groupPrefix: '',
    qualified: false,
    version: 'v1',
    kind: 'Pod',
    resource: 'pods',
    namespaced: true,
    status: true,
    schema: podSchema,
  },
  {
    groupPrefix: '',
    qualified: false,
    version: 'v1',
    kind: 'Service',
    resource: 'services',
    namespaced: true,
    status: true,
    schema: serviceSchema,
  },
  {
    groupPrefix: 'apps',
    qualified: false,
    version: 'v1',
    kind: 'Deployment',
    resource: 'deployments',
    namespaced: true,
    status: true,
    schema: deploymentSchema,
  },
  {
    groupPrefix: 'coordination',
    qualified: true,
    version: 'v1',
    kind: 'Lease',
    resource: 'leases',
    namespaced: true,
    status: false,
    schema: leaseSchema,
  },
  {
    groupPrefix: 'apiextensions',
    qualified: true,
    version: 'v1',
    kind: 'CustomResourceDefinition',
    resource: 'customresourcedefinitions',
    namespaced: false,
    status: true,
    schema: customResourceDefinitionSchema,
  },
  {
    groupPrefix: 'rbac.authorization',
    qualified: true,
    version: 'v1',
    kind: 'Role',
    resource: 'roles',
    namespaced: true,
    status: false,
    schema: roleSchema,
  },
  {
    groupPrefix: 'rbac.authorization',
    qualified: true,
    version: 'v1',
    kind: 'ClusterRole',
    resource: 'clusterroles',
    namespaced: false,
    status: false,
    schema: clusterRoleSchema,
  },
  {
    groupPrefix: 'rbac.authorization',
    qualified: true,
    version: 'v1',
    kind: 'RoleBinding',
    resource: 'rolebindings',
    namespaced: true,
    status: false,
    schema: roleBindingSchema,
  },
  {
    groupPrefix: 'rbac.authorization',
    qualified: true,
    version: 'v1',
    kind: 'ClusterRoleBinding',
    resource: 'clusterrolebindings',
    namespaced: false,
    status: false,
    schema: clusterRoleBindingSchema,
  },
];

/** The full API group of a built-in type under a flavor (`''`, `apps`, `coordination.k8s.io`). */
export function builtinGroup(t: BuiltinType, flavor: Flavor): string {
  return t.qualified ? flavor.group(t.groupPrefix) : t.groupPrefix;
}

/** Every built-in type with a schema. */
export function builtinTypes(): readonly BuiltinType[] {
  return table;
}

/**
 * The schema of a built-in kind, by full group under `flavor` (`''`, `apps`,
 * `coordination.orch.io`), version and kind; `undefined` when Orchard has none. The returned
 * schema carries `groupVersionKind` and must not be mutated.
 */
export function builtinSchema(
  flavor: Flavor,
  group: string,
  version: string,
  kind: string,
): StructuralSchema | undefined {
  const t = table.find((x) => x.version === version && x.kind === kind && builtinGroup(x, flavor) === group);
  if (!t) return undefined;
  const key = `${flavor.name}/${group}/${version}/${kind}`;
  let s = withGvk.get(key);
  if (!s) {
    s = { ...t.schema, groupVersionKind: [{ group, version, kind }] };
    withGvk.set(key, s);
  }
  return s;
}

const withGvk = new Map<string, StructuralSchema>();

export { typeMetaProps } from './dsl.js';
export { labelSelectorSchema, objectMetaSchema } from './object-meta.js';
export { containerSchema, podSpecSchema, podTemplateSpecSchema } from './pod.js';
