import type { Flavor } from '@orchard/meta';
import { defineResource, type ResourceDefinition } from '../resource.js';

/** `leases` (group `coordination.<domain>` v1, namespaced). PUT creates, as upstream allows. */
export function leases(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: flavor.group('coordination'),
    versions: ['v1'],
    resource: 'leases',
    kind: 'Lease',
    namespaced: true,
    allowCreateOnUpdate: true,
  });
}
