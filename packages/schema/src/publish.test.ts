import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { builtinGroup, builtinSchema, builtinTypes } from './builtin/index.js';
import {
  buildOpenApiV2,
  buildOpenApiV3,
  buildOpenApiV3Index,
  contentHash,
  type PublishedResource,
  schemaName,
} from './publish.js';
import { validate } from './validate.js';

const k = kubernetesFlavor;
const published = (flavor = k): PublishedResource[] =>
  builtinTypes().map((t) => ({
    group: builtinGroup(t, flavor),
    version: t.version,
    kind: t.kind,
    resource: t.resource,
    namespaced: t.namespaced,
    schema: t.schema,
    builtin: true,
    subresources: t.status ? ['status'] : [],
  }));

describe('schemaName', () => {
  const cases: [string, string, string, boolean, string, string][] = [
    ['kubernetes', '', 'ConfigMap', true, 'v1', 'io.k8s.api.core.v1.ConfigMap'],
    ['kubernetes', 'apps', 'Deployment', true, 'v1', 'io.k8s.api.apps.v1.Deployment'],
    ['kubernetes', 'coordination.k8s.io', 'Lease', true, 'v1', 'io.k8s.api.coordination.v1.Lease'],
    [
      'kubernetes',
      'apiextensions.k8s.io',
      'CustomResourceDefinition',
      true,
      'v1',
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    ],
    ['kubernetes', 'example.com', 'Widget', false, 'v1', 'com.example.v1.Widget'],
    ['orch', '', 'ConfigMap', true, 'v1', 'io.orch.api.core.v1.ConfigMap'],
    ['orch', 'coordination.orch.io', 'Lease', true, 'v1', 'io.orch.api.coordination.v1.Lease'],
  ];
  it.each(cases)('%s %s %s', (f, g, kind, builtin, v, expected) => {
    expect(schemaName(f === 'orch' ? orchFlavor : k, g, v, kind, builtin)).toBe(expected);
  });
});

describe('buildOpenApiV3', () => {
  const doc = buildOpenApiV3({ group: '', version: 'v1' }, published(), k) as any;
  it('has components with the GVK extension', () => {
    expect(doc.components.schemas['io.k8s.api.core.v1.ConfigMap']['x-kubernetes-group-version-kind']).toEqual(
      [{ group: '', kind: 'ConfigMap', version: 'v1' }],
    );
    expect(
      doc.components.schemas['io.k8s.api.core.v1.Pod'].properties.spec.properties.containers[
        'x-kubernetes-patch-merge-key'
      ],
    ).toBe('name');
  });
  it('lists fieldValidation and the patch media types on the item patch operation', () => {
    const patch = doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch;
    expect(patch.parameters.map((p: any) => p.name)).toEqual([
      'dryRun',
      'fieldManager',
      'fieldValidation',
      'force',
    ]);
    expect(Object.keys(patch.requestBody.content)).toContain('application/strategic-merge-patch+json');
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: '', kind: 'ConfigMap', version: 'v1' });
  });
  it('offers no strategic merge for custom resources', () => {
    const cr: PublishedResource = {
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
      resource: 'widgets',
      namespaced: true,
      builtin: false,
      schema: { type: 'object' },
    };
    const d = buildOpenApiV3({ group: 'example.com', version: 'v1' }, [cr], k) as any;
    const content = Object.keys(
      d.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch.requestBody.content,
    );
    expect(content).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(d.components.schemas['com.example.v1.Widget']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
  });
  it('serves status sub-resources and cluster-scoped paths', () => {
    expect(doc.paths['/api/v1/namespaces/{name}/status'].put).toBeDefined();
    expect(doc.paths['/api/v1/namespaces/{namespace}/pods/{name}/status'].patch).toBeDefined();
    expect(doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}/status']).toBeUndefined();
  });
  it('uses orch extension names under orch', () => {
    const d = buildOpenApiV3({ group: 'apps', version: 'v1' }, published(orchFlavor), orchFlavor) as any;
    expect(d.components.schemas['io.orch.api.apps.v1.Deployment']['x-orch-group-version-kind']).toBeDefined();
    expect(JSON.stringify(d)).not.toContain('x-kubernetes-');
  });
});

describe('index and hash', () => {
  it('builds serverRelativeURLs', () => {
    expect(buildOpenApiV3Index({ 'apis/apps/v1': { hash: 'AB' }, 'api/v1': { hash: 'CD' } })).toEqual({
      paths: {
        'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=CD' },
        'apis/apps/v1': { serverRelativeURL: '/openapi/v3/apis/apps/v1?hash=AB' },
      },
    });
  });
  it('hash changes with content', () => {
    expect(contentHash('a')).not.toBe(contentHash('b'));
    expect(contentHash('abc')).toMatch(/^[0-9A-F]{16}$/);
  });
});

describe('buildOpenApiV2', () => {
  it('is swagger 2.0 with definitions and body parameters', () => {
    const d = buildOpenApiV2(published(), k) as any;
    expect(d.swagger).toBe('2.0');
    expect(d.definitions['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', kind: 'Deployment', version: 'v1' },
    ]);
    const patch = d.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    expect(patch.consumes).toContain('application/strategic-merge-patch+json');
    expect(patch.parameters[0]).toMatchObject({ name: 'body', in: 'body' });
    expect(JSON.stringify(d)).not.toContain('#/components/');
  });
});

describe('built-in schemas', () => {
  it('looks kinds up by flavor group', () => {
    expect(builtinSchema(k, 'coordination.k8s.io', 'v1', 'Lease')?.groupVersionKind).toEqual([
      { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' },
    ]);
    expect(builtinSchema(orchFlavor, 'coordination.orch.io', 'v1', 'Lease')).toBeDefined();
    expect(builtinSchema(k, 'coordination.orch.io', 'v1', 'Lease')).toBeUndefined();
  });
  const deploy = builtinSchema(k, 'apps', 'v1', 'Deployment')!;
  const podSpec = deploy.properties!.spec!.properties!.template!.properties!.spec!;
  const container = podSpec.properties!.containers!.items!;
  const markerCases: [string, unknown, Record<string, unknown>][] = [
    [
      'containers',
      podSpec.properties!.containers,
      { listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name' },
    ],
    ['initContainers', podSpec.properties!.initContainers, { listType: 'map', listMapKeys: ['name'] }],
    [
      'ports',
      container.properties!.ports,
      { listType: 'map', listMapKeys: ['containerPort', 'protocol'], patchMergeKey: 'containerPort' },
    ],
    ['env', container.properties!.env, { listMapKeys: ['name'] }],
    [
      'volumeMounts',
      container.properties!.volumeMounts,
      { listMapKeys: ['mountPath'], patchMergeKey: 'mountPath' },
    ],
    ['volumes', podSpec.properties!.volumes, { listMapKeys: ['name'], patchStrategy: 'merge,retainKeys' }],
    ['tolerations', podSpec.properties!.tolerations, { listType: 'atomic' }],
    ['selector', deploy.properties!.spec!.properties!.selector, { mapType: 'atomic' }],
    ['strategy', deploy.properties!.spec!.properties!.strategy, { patchStrategy: 'retainKeys' }],
    ['finalizers', deploy.properties!.metadata!.properties!.finalizers, { listType: 'set' }],
    ['ownerReferences', deploy.properties!.metadata!.properties!.ownerReferences, { listMapKeys: ['uid'] }],
    ['managedFields', deploy.properties!.metadata!.properties!.managedFields, { listType: 'atomic' }],
    [
      'service ports',
      builtinSchema(k, '', 'v1', 'Service')!.properties!.spec!.properties!.ports,
      { listMapKeys: ['port', 'protocol'] },
    ],
  ];
  it.each(markerCases)('%s markers', (_n, s, expected) => {
    expect(s).toMatchObject(expected);
  });
  it('validates a real Deployment', () => {
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'c',
                image: 'nginx',
                ports: [{ containerPort: 80 }],
                resources: { limits: { cpu: '500m', memory: 1024 } },
              },
            ],
          },
        },
      },
    };
    expect(validate(d, deploy)).toEqual([]);
    expect(validate({ ...d, spec: { ...d.spec, replicas: 'two' } }, deploy).map((e) => e.field)).toEqual([
      'spec.replicas',
    ]);
  });
  it('every built-in has descriptions on its top-level fields', () => {
    for (const t of builtinTypes()) {
      for (const [name, p] of Object.entries(t.schema.properties ?? {}))
        expect(p.description, `${t.kind}.${name}`).toBeTruthy();
    }
  });
});
