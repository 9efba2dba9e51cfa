import { kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { validateCrd, validateCrdUpdate } from './validate-crd.js';

const valid = () => ({
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
  },
});

type Mutate = (c: ReturnType<typeof valid> & Record<string, any>) => void;
const cases: [string, Mutate, string[]][] = [
  ['valid', () => {}, []],
  [
    'group without a dot',
    (c) => {
      c.spec.group = 'example';
      c.metadata.name = 'widgets.example';
    },
    ['spec.group'],
  ],
  [
    'name not plural.group',
    (c) => {
      c.metadata.name = 'x.example.com';
    },
    ['metadata.name'],
  ],
  [
    'bad plural',
    (c) => {
      c.spec.names.plural = 'Widgets';
      c.metadata.name = 'Widgets.example.com';
    },
    ['spec.names.plural'],
  ],
  [
    'missing kind',
    (c) => {
      c.spec.names.kind = '';
    },
    ['spec.names.kind'],
  ],
  [
    'bad scope',
    (c) => {
      c.spec.scope = 'Global';
    },
    ['spec.scope'],
  ],
  [
    'no storage version',
    (c) => {
      c.spec.versions[0]!.storage = false;
    },
    ['spec.versions'],
  ],
  [
    'two storage versions',
    (c) => {
      c.spec.versions.push({
        name: 'v2',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object' } },
      });
    },
    ['spec.versions'],
  ],
  [
    'duplicate version',
    (c) => {
      c.spec.versions.push({
        name: 'v1',
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: 'object' } },
      });
    },
    ['spec.versions[1].name'],
  ],
  [
    'missing schema',
    (c) => {
      delete (c.spec.versions[0] as any).schema;
    },
    ['spec.versions[0].schema.openAPIV3Schema'],
  ],
  [
    'non-structural schema',
    (c) => {
      (c.spec.versions[0] as any).schema.openAPIV3Schema = { type: 'object', properties: { a: {} } };
    },
    ['spec.versions[0].schema.openAPIV3Schema.properties[a].type'],
  ],
  [
    'bad scale path',
    (c) => {
      (c.spec.versions[0] as any).subresources = {
        scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.status.replicas' },
      };
    },
    ['spec.versions[0].subresources.scale.specReplicasPath'],
  ],
  [
    'bad printer column',
    (c) => {
      (c.spec.versions[0] as any).additionalPrinterColumns = [
        { name: 'X', type: 'float', jsonPath: '.spec.x' },
      ];
    },
    ['spec.versions[0].additionalPrinterColumns[0].type'],
  ],
  [
    'invalid default',
    (c) => {
      (c.spec.versions[0] as any).schema.openAPIV3Schema = {
        type: 'object',
        properties: { n: { type: 'integer', default: 'x' } },
      };
    },
    ['spec.versions[0].schema.openAPIV3Schema.properties[n].default'],
  ],
  [
    'default with unknown fields',
    (c) => {
      (c.spec.versions[0] as any).schema.openAPIV3Schema = {
        type: 'object',
        properties: {
          o: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } },
        },
      };
    },
    ['spec.versions[0].schema.openAPIV3Schema.properties[o].default'],
  ],
  [
    'valid defaults',
    (c) => {
      (c.spec.versions[0] as any).schema.openAPIV3Schema = {
        type: 'object',
        properties: {
          o: { type: 'object', properties: { a: { type: 'string', default: 'z' } }, default: { a: 'x' } },
        },
      };
    },
    [],
  ],
  [
    'bad conversion strategy',
    (c) => {
      (c.spec as any).conversion = { strategy: 'Magic' };
    },
    ['spec.conversion.strategy'],
  ],
];

describe('validateCrd', () => {
  it.each(cases)('%s', (_n, mutate, fields) => {
    const c = valid() as ReturnType<typeof valid> & Record<string, any>;
    mutate(c);
    expect(validateCrd(c, kubernetesFlavor).map((e) => e.field)).toEqual(fields);
  });
  it('keeps group, plural and scope immutable', () => {
    const next = valid();
    next.spec.scope = 'Cluster';
    expect(validateCrdUpdate(next, valid(), kubernetesFlavor).map((e) => e.field)).toEqual(['spec.scope']);
  });
});
