import { kubernetesFlavor } from '@orchard/meta';
import { builtinSchema, type StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { applyMergePatch } from './merge-patch.js';
import { applyStrategicMergePatch } from './strategic.js';
import { createThreeWayMergePatch, createTwoWayMergePatch } from './three-way.js';

const deployment = builtinSchema(kubernetesFlavor, 'apps', 'v1', 'Deployment')!;
const cm = builtinSchema(kubernetesFlavor, '', 'v1', 'ConfigMap')!;

const dep = (containers: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: { replicas: 1, template: { spec: { containers } }, ...extra },
});

type Row = [string, any, any, any, any];
const rows: Row[] = [
  [
    'configmap: change and remove a key',
    { data: { a: '1', b: '2' } },
    { data: { a: '3' } },
    { data: { a: '1', b: '2', server: 'x' } },
    { data: { a: '3', b: null } },
  ],
  [
    'configmap: no change',
    { data: { a: '1' } },
    { data: { a: '1' } },
    { data: { a: '1' }, metadata: { uid: 'u' } },
    {},
  ],
  [
    'server-set field kept',
    { data: { a: '1' } },
    { data: { a: '1', c: '2' } },
    { data: { a: '1' }, status: { s: 1 } },
    { data: { c: '2' } },
  ],
  [
    'container image changed, one removed',
    dep([
      { name: 'a', image: 'a:1' },
      { name: 'b', image: 'b:1' },
    ]),
    dep([{ name: 'a', image: 'a:2' }]),
    dep([
      { name: 'a', image: 'a:1', imagePullPolicy: 'IfNotPresent' },
      { name: 'b', image: 'b:1' },
    ]),
    {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'a' }],
            containers: [
              { name: 'b', $patch: 'delete' },
              { name: 'a', image: 'a:2' },
            ],
          },
        },
      },
    },
  ],
  [
    'env var added',
    dep([{ name: 'a', image: 'a', env: [{ name: 'X', value: '1' }] }]),
    dep([
      {
        name: 'a',
        image: 'a',
        env: [
          { name: 'X', value: '1' },
          { name: 'Y', value: '2' },
        ],
      },
    ]),
    dep([{ name: 'a', image: 'a', env: [{ name: 'X', value: '1' }] }]),
    {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'a' }],
            containers: [
              {
                name: 'a',
                '$setElementOrder/env': [{ name: 'X' }, { name: 'Y' }],
                env: [{ name: 'Y', value: '2' }],
              },
            ],
          },
        },
      },
    },
  ],
  [
    'strategy switched (retainKeys)',
    dep([], { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } }),
    dep([], { strategy: { type: 'Recreate' } }),
    dep([], { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } }),
    { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } },
  ],
];

describe('createThreeWayMergePatch', () => {
  it.each(rows)('%s', (_n, original, modified, current, expected) => {
    const schema = original.kind === 'Deployment' ? deployment : cm;
    const patch = createThreeWayMergePatch(original, modified, current, schema);
    expect(patch).toEqual(expected);
    // Applying it to the live object yields the manifest's values.
    const result = applyStrategicMergePatch(current, patch, schema) as any;
    for (const k of ['data', 'spec'])
      if (modified[k] !== undefined) expect(result[k]).toMatchObject(modified[k]);
  });

  it('without a schema yields a JSON merge patch', () => {
    const original = { spec: { list: [1, 2], a: 1, gone: true } };
    const modified = { spec: { list: [2], a: 2 } };
    const current = { spec: { list: [1, 2], a: 1, gone: true, server: 1 } };
    const patch = createThreeWayMergePatch(original, modified, current);
    expect(patch).toEqual({ spec: { list: [2], a: 2, gone: null } });
    expect(applyMergePatch(current, patch)).toEqual({ spec: { list: [2], a: 2, server: 1 } });
  });
});

describe('createTwoWayMergePatch', () => {
  it('emits $deleteFromPrimitiveList for set lists', () => {
    const meta = { metadata: { finalizers: ['a', 'b'] } };
    const patch = createTwoWayMergePatch(meta, { metadata: { finalizers: ['b', 'c'] } }, cm);
    expect(patch).toEqual({
      metadata: {
        finalizers: ['c'],
        '$deleteFromPrimitiveList/finalizers': ['a'],
        '$setElementOrder/finalizers': ['b', 'c'],
      },
    });
    expect(applyStrategicMergePatch(meta, patch, cm)).toEqual({ metadata: { finalizers: ['b', 'c'] } });
  });
});

describe('three-way patches (upstream cases)', () => {
  const mergeItem: StructuralSchema = {
    type: 'object',
    properties: {
      simpleMap: { type: 'object', additionalProperties: { type: 'string' } },
      mergingList: {
        type: 'array',
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        items: { type: 'object' },
      },
      mergingIntList: { type: 'array', patchStrategy: 'merge', items: { type: 'integer' } },
      nonMergingIntList: { type: 'array', items: { type: 'integer' } },
    },
  };
  type Row = [
    string,
    Record<string, unknown> | undefined,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
  ];
  const rows: Row[] = [
    [
      'no original',
      undefined,
      { name: '1', value: '1' },
      { name: '1', other: 'a' },
      { value: '1' },
      { name: '1', value: '1', other: 'a' },
    ],
    [
      'add a field with a conflict',
      { name: '1' },
      { name: '1', value: '1' },
      { name: 'a', other: 'a' },
      { name: '1', value: '1' },
      { name: '1', value: '1', other: 'a' },
    ],
    [
      'add a field and delete one',
      { name: '1' },
      { value: '1' },
      { name: '1', other: 'a' },
      { name: null, value: '1' },
      { value: '1', other: 'a' },
    ],
    [
      'delete from a nested map with a conflict',
      { simpleMap: { key1: '1', key2: '1' } },
      { simpleMap: { key1: '1' } },
      { simpleMap: { key1: 'a', key2: '1', other: 'a' } },
      { simpleMap: { key1: '1', key2: null } },
      { simpleMap: { key1: '1', other: 'a' } },
    ],
    [
      'replace a list of scalars with a conflict',
      { nonMergingIntList: [1, 2] },
      { nonMergingIntList: [2, 3] },
      { nonMergingIntList: [1, 4] },
      { nonMergingIntList: [2, 3] },
      { nonMergingIntList: [2, 3] },
    ],
    [
      'delete all maps from a merging list',
      { mergingList: [{ name: '1' }, { name: '2' }] },
      { mergingList: [] },
      {
        mergingList: [
          { name: '1', other: 'a' },
          { name: '2', other: 'b' },
        ],
      },
      {
        mergingList: [
          { name: '1', $patch: 'delete' },
          { name: '2', $patch: 'delete' },
        ],
      },
      { mergingList: [] },
    ],
    [
      'merge empty merging lists',
      { mergingList: [] },
      { mergingList: [] },
      { mergingList: [] },
      {},
      { mergingList: [] },
    ],
    [
      'delete items in a list of scalars',
      { mergingIntList: [1, 2, 3] },
      { mergingIntList: [1, 2] },
      { mergingIntList: [1, 2, 3, 4] },
      { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [1, 2, 4] },
    ],
    [
      'add to a merging list with a conflict',
      { mergingList: [{ name: '1' }, { name: '2', value: '2' }] },
      { mergingList: [{ name: '1' }, { name: '2', value: '2' }, { name: '3', value: '3' }] },
      {
        mergingList: [
          { name: '1', other: 'a' },
          { name: '2', value: '3', other: 'b' },
        ],
      },
      {
        '$setElementOrder/mergingList': [{ name: '1' }, { name: '2' }, { name: '3' }],
        mergingList: [
          { name: '2', value: '2' },
          { name: '3', value: '3' },
        ],
      },
      {
        mergingList: [
          { name: '1', other: 'a' },
          { name: '2', value: '2', other: 'b' },
          { name: '3', value: '3' },
        ],
      },
    ],
  ];
  it.each(rows)('%s', (_n, original, modified, current, threeWay, result) => {
    const patch = createThreeWayMergePatch(original, modified, current, mergeItem);
    expect(patch).toEqual(threeWay);
    expect(applyStrategicMergePatch(current, patch, mergeItem)).toEqual(result);
  });
});
