import { kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { customResourceInfo, isCustomResource } from '../schema/schemas.js';
import { compareVersions, definitionFromCrd } from './controller.js';

describe('compareVersions (upstream version priority)', () => {
  it('sorts GA > beta > alpha > others, higher numbers first', () => {
    const versions = [
      'v1alpha1',
      'foo',
      'v2',
      'v1beta2',
      'v1',
      'v10',
      'v11alpha2',
      'v1beta1',
      'bar',
      'v12alpha1',
    ];
    expect([...versions].sort(compareVersions)).toEqual([
      'v10',
      'v2',
      'v1',
      'v1beta2',
      'v1beta1',
      'v12alpha1',
      'v11alpha2',
      'v1alpha1',
      'bar',
      'foo',
    ]);
  });
});

describe('definitionFromCrd', () => {
  const crd = {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Cluster',
      names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          deprecated: true,
          schema: { openAPIV3Schema: { type: 'object' } },
        },
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
          },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          },
        },
        { name: 'v0', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      ],
    },
  };
  const def = definitionFromCrd(crd, kubernetesFlavor);
  const cases: [string, unknown, unknown][] = [
    ['served versions, preferred first', def.versions, ['v1', 'v1beta1']],
    ['cluster-scoped', def.namespaced, false],
    [
      'names',
      [def.resource, def.singular, def.kind, def.listKind],
      ['widgets', 'widget', 'Widget', 'WidgetList'],
    ],
    ['short names and categories', [def.shortNames, def.categories], [['wd'], ['all']]],
    ['sub-resources', def.subresources.map((s) => s.name), ['status', 'scale']],
    ['storage version', customResourceInfo(def)?.storageVersion, 'v1'],
    [
      'schema markers read',
      customResourceInfo(def)?.schemas.get('v1')?.properties?.spec?.preserveUnknownFields,
      true,
    ],
    [
      'deprecation warning',
      customResourceInfo(def)?.deprecations?.get('v1beta1'),
      'example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget',
    ],
    ['scale paths', customResourceInfo(def)?.scale?.specReplicasPath, '.spec.replicas'],
  ];
  it.each(cases)('%s', (_n, actual, expected) => {
    expect(actual).toEqual(expected);
  });
  it('is a custom resource', () => {
    expect(isCustomResource(def)).toBe(true);
  });
});
