import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../registry/builtin/index.js';
import { createResourceRegistry } from '../registry/registry.js';
import { defineResource } from '../registry/resource.js';
import { aggregated, coreVersions, group, groupList, resourceList } from './discovery.js';

describe('discovery', () => {
  it('follows registry changes (CRD-like add and remove)', () => {
    const reg = createResourceRegistry(builtinResources(orchFlavor));
    const changes: string[] = [];
    reg.onChange((c) => changes.push(`${c.type} ${c.definition.resource}`));
    expect(resourceList(reg, 'example.com', 'v1')).toBeUndefined();
    reg.add(
      defineResource({
        group: 'example.com',
        versions: ['v1', 'v1beta1'],
        resource: 'widgets',
        kind: 'Widget',
        namespaced: true,
        categories: ['all'],
      }),
    );
    expect(resourceList(reg, 'example.com', 'v1beta1')).toMatchObject({
      groupVersion: 'example.com/v1beta1',
      resources: [{ name: 'widgets', kind: 'Widget', categories: ['all'] }],
    });
    expect(group(reg, 'example.com')).toMatchObject({
      kind: 'APIGroup',
      name: 'example.com',
      preferredVersion: { groupVersion: 'example.com/v1' },
    });
    expect(groupList(reg).groups.map((g) => g.name)).toContain('example.com');
    reg.remove('example.com', 'widgets');
    expect(groupList(reg).groups.map((g) => g.name)).not.toContain('example.com');
    expect(changes).toEqual(['added widgets', 'removed widgets']);
  });

  it('lists the core group only under /api, named groups only under /apis', () => {
    const reg = createResourceRegistry(builtinResources(kubernetesFlavor));
    expect(coreVersions(reg, '127.0.0.1:1')).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const api = aggregated(reg, kubernetesFlavor, 'api', 'v2');
    expect(api.apiVersion).toBe('apidiscovery.k8s.io/v2');
    expect(api.items).toHaveLength(1);
    expect(api.items[0]?.metadata).toEqual({});
    const apis = aggregated(reg, kubernetesFlavor, 'apis', 'v2beta1');
    const names = apis.items.map((i) => i.metadata.name);
    expect(names).toEqual(
      expect.arrayContaining(['coordination.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io']),
    );
    expect(names.some((n) => typeof n === 'string' && n.includes('orch.io'))).toBe(false);
  });

  it('describes scope, verbs and sub-resources', () => {
    const reg = createResourceRegistry(builtinResources(orchFlavor));
    const core = aggregated(reg, orchFlavor, 'api', 'v2').items[0]?.versions[0]?.resources ?? [];
    const ns = core.find((r) => r.resource === 'namespaces') as Record<string, unknown>;
    expect(ns).toMatchObject({ scope: 'Cluster', shortNames: ['ns'], singularResource: 'namespace' });
    expect(ns.subresources).toEqual([
      {
        subresource: 'status',
        responseKind: { group: '', version: 'v1', kind: 'Namespace' },
        verbs: ['get', 'patch', 'update'],
      },
      {
        subresource: 'finalize',
        responseKind: { group: '', version: 'v1', kind: 'Namespace' },
        verbs: ['update'],
      },
    ]);
    const legacy = resourceList(reg, '', 'v1');
    expect(legacy?.resources.find((r) => r.name === 'configmaps')?.verbs).toEqual([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    expect(legacy?.resources.find((r) => r.name === 'namespaces/finalize')).toMatchObject({
      kind: 'Namespace',
      verbs: ['update'],
    });
  });
});
