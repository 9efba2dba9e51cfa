import { defineResource, type ResourceDefinition } from '../resource.js';

/** `serviceaccounts` (core v1, namespaced). The `token` sub-resource arrives with authentication. */
export const serviceaccounts: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'serviceaccounts',
  returnDeletedObject: true,
  kind: 'ServiceAccount',
  namespaced: true,
  shortNames: ['sa'],
});
