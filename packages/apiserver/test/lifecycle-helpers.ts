import { type TestResponse, waitFor } from '@orchard/testing';
import { defineResource } from '../src/registry/resource.js';

/** A namespaced type added straight to the registry (as an embedding server would), besides CRDs. */
export const gadgets = defineResource({
  group: 'toys.example.org',
  versions: ['v1'],
  resource: 'gadgets',
  kind: 'Gadget',
  namespaced: true,
});

/** Shared with the other suites from `@orchard/testing`. */
export { openWatch } from '@orchard/testing';
export { waitFor };

export function json<T = Record<string, unknown>>(r: TestResponse): T {
  return r.json as T;
}

export function cm(
  name: string,
  extra: { labels?: Record<string, string>; finalizers?: string[]; ownerReferences?: unknown[] } = {},
): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { k: 'v' } };
}
