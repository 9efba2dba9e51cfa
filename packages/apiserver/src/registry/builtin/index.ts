import type { Flavor } from '@orchard/meta';
import { customResourceDefinitions } from '../../crd/crd-resource.js';
import type { ResourceDefinition } from '../resource.js';
import { configmaps } from './configmaps.js';
import { events } from './events.js';
import { leases } from './leases.js';
import { namespaces } from './namespaces.js';
import { selfSubjectAccessReviews, selfSubjectReviews } from './reviews.js';
import { secrets } from './secrets.js';
import { serviceAccounts } from './serviceaccounts.js';
import { tokenReviews } from './token-reviews.js';
import { deployments, pods, services } from './workloads.js';

/** The built-in resource types of the reference server, for a flavor. */
export function builtinResources(flavor: Flavor): ResourceDefinition[] {
  return [
    namespaces,
    configmaps,
    secrets,
    serviceAccounts(flavor),
    events,
    leases(flavor),
    selfSubjectReviews(flavor),
    tokenReviews(flavor),
    selfSubjectAccessReviews(flavor),
    pods,
    services,
    deployments,
    customResourceDefinitions(flavor),
  ];
}
