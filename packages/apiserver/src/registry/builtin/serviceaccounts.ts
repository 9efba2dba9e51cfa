import type { Flavor } from '@orchard/meta';
import { defineResource, type ResourceDefinition } from '../resource.js';

/**
 * `serviceaccounts` (core v1, namespaced) with the `token` sub-resource: POST a TokenRequest
 * (`authentication.<domain>/v1`) to get a signed token (`handlers/token-request.ts`).
 */
export function serviceAccounts(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: '',
    versions: ['v1'],
    resource: 'serviceaccounts',
    returnDeletedObject: true,
    kind: 'ServiceAccount',
    namespaced: true,
    shortNames: ['sa'],
    subresources: [
      {
        name: 'token',
        kind: 'TokenRequest',
        group: flavor.group('authentication'),
        version: 'v1',
        verbs: ['create'],
      },
    ],
  });
}
