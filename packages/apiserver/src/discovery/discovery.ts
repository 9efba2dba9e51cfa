import type { Flavor } from '@orchard/meta';
import type { ResourceRegistry } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/resource.js';

/**
 * Discovery documents built from the registry: the legacy `/api`, `/apis`, `/api/v1`,
 * `/apis/<g>/<v>` forms and the aggregated `APIGroupDiscoveryList` (v2 and v2beta1), whose
 * response Content-Type must carry `g=apidiscovery.<domain>;v=<v>;as=APIGroupDiscoveryList` for
 * kubectl to read it as aggregated.
 */

function apiResources(defs: readonly ResourceDefinition[], version: string) {
  const out: Record<string, unknown>[] = [];
  for (const d of defs) {
    if (!d.versions.includes(version)) continue;
    const r: Record<string, unknown> = {
      name: d.resource,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: [...d.verbs],
    };
    if (d.shortNames.length) r.shortNames = [...d.shortNames];
    if (d.categories.length) r.categories = [...d.categories];
    out.push(r);
    for (const s of d.subresources) {
      const sr: Record<string, unknown> = {
        name: `${d.resource}/${s.name}`,
        singularName: '',
        namespaced: d.namespaced,
        kind: s.kind ?? d.kind,
        verbs: [...s.verbs],
      };
      if (s.group !== undefined) sr.group = s.group;
      if (s.version !== undefined) sr.version = s.version;
      out.push(sr);
    }
  }
  return out;
}

/** `GET /api/v1`, `GET /apis/<g>/<v>`: an APIResourceList, or undefined when the group version is not served. */
export function resourceList(registry: ResourceRegistry, group: string, version: string) {
  const defs = registry.all().filter((d) => d.group === group && d.versions.includes(version));
  if (defs.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: apiResources(defs, version),
  };
}

/** `GET /api`: APIVersions. */
export function coreVersions(registry: ResourceRegistry, serverAddress: string) {
  const core = registry.groups().find((g) => g.name === '');
  return {
    kind: 'APIVersions',
    versions: core ? core.versions : [],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(g: { name: string; versions: string[] }) {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

/** `GET /apis`: APIGroupList of the named groups. */
export function groupList(registry: ResourceRegistry) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry
      .groups()
      .filter((g) => g.name !== '')
      .map(apiGroup),
  };
}

/** `GET /apis/<g>`: APIGroup, or undefined. */
export function group(registry: ResourceRegistry, name: string) {
  const g = registry.groups().find((x) => x.name === name && name !== '');
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) } : undefined;
}

/**
 * The aggregated form for `/api` (core only) or `/apis` (named groups), in discovery version
 * `v2` or `v2beta1` (same shape).
 */
export function aggregated(
  registry: ResourceRegistry,
  flavor: Flavor,
  which: 'api' | 'apis',
  discoveryVersion: 'v2' | 'v2beta1',
) {
  const groups = registry.groups().filter((g) => (which === 'api' ? g.name === '' : g.name !== ''));
  const defs = registry.all();
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `${flavor.group('apidiscovery')}/${discoveryVersion}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: g.name === '' ? {} : { name: g.name },
      versions: g.versions.map((v) => ({
        version: v,
        freshness: 'Current',
        resources: defs
          .filter((d) => d.group === g.name && d.versions.includes(v))
          .map((d) => {
            const r: Record<string, unknown> = {
              resource: d.resource,
              responseKind: { group: d.group, version: v, kind: d.kind },
              scope: d.namespaced ? 'Namespaced' : 'Cluster',
              singularResource: d.singular,
              verbs: [...d.verbs],
            };
            if (d.shortNames.length) r.shortNames = [...d.shortNames];
            if (d.categories.length) r.categories = [...d.categories];
            if (d.subresources.length) {
              r.subresources = d.subresources.map((s) => ({
                subresource: s.name,
                responseKind: { group: s.group ?? d.group, version: s.version ?? v, kind: s.kind ?? d.kind },
                verbs: [...s.verbs],
              }));
            }
            return r;
          }),
      })),
    })),
  };
}
