import { type Authorizer, alwaysAllowAuthorizer } from '@orchard/authz';
import type { Flavor } from '@orchard/meta';
import { customResourceDefinitions } from '../../crd/crd-resource.js';
import { rbacResources } from '../../rbac/rbac-resources.js';
import type { ResourceDefinition } from '../resource.js';
import { daemonSets, replicaSets, statefulSets } from './apps.js';
import { horizontalPodAutoscalers } from './autoscaling.js';
import { cronJobs, jobs } from './batch.js';
import {
  endpointSlices,
  endpoints,
  ingresses,
  nodes,
  persistentVolumeClaims,
  persistentVolumes,
  replicationControllers,
  resourceQuotas,
} from './cluster.js';
import { configmaps } from './configmaps.js';
import { events } from './events.js';
import { leases } from './leases.js';
import { namespaces } from './namespaces.js';
import { authorizationReviews, selfSubjectReviews } from './reviews.js';
import { secrets } from './secrets.js';
import { serviceAccounts } from './serviceaccounts.js';
import { tokenReviews } from './token-reviews.js';
import { deployments, pods, services } from './workloads.js';

/**
 * The built-in resource types of the reference server, for a flavor; the authorization reviews
 * answer with `authorizer()` (the server's chain).
 */
export function builtinResources(
  flavor: Flavor,
  authorizer: () => Authorizer = () => alwaysAllowAuthorizer,
): ResourceDefinition[] {
  return [
    namespaces,
    configmaps,
    secrets,
    serviceAccounts(flavor),
    events,
    leases(flavor),
    selfSubjectReviews(flavor),
    tokenReviews(flavor),
    ...authorizationReviews(flavor, authorizer),
    ...rbacResources(flavor),
    pods,
    services,
    deployments,
    replicaSets,
    statefulSets,
    daemonSets,
    replicationControllers,
    endpoints,
    endpointSlices(flavor),
    persistentVolumeClaims,
    persistentVolumes,
    resourceQuotas,
    nodes,
    ingresses(flavor),
    jobs,
    cronJobs,
    horizontalPodAutoscalers(flavor),
    customResourceDefinitions(flavor),
  ];
}
