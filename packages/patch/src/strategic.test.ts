import { kubernetesFlavor } from '@orchard/meta';
import { builtinSchema, type StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from './strategic.js';

const deployment = builtinSchema(kubernetesFlavor, 'apps', 'v1', 'Deployment')!;
const pod = builtinSchema(kubernetesFlavor, '', 'v1', 'Pod')!;

const base = {
  metadata: { name: 'web', labels: { app: 'web', tier: 'fe' }, finalizers: ['a', 'b'] },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'app:1',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        ports: [{ containerPort: 80, protocol: 'TCP' }],
      },
      { name: 'side', image: 'side:1', args: ['x', 'y'] },
    ],
    tolerations: [{ key: 'k1' }, { key: 'k2' }],
    volumes: [{ name: 'v1', emptyDir: {} }],
  },
};

const cases: [string, unknown, unknown, (r: any) => unknown, unknown][] = [
  [
    'merge list element by key',
    base,
    { spec: { containers: [{ name: 'app', image: 'app:2' }] } },
    (r) => r.spec.containers.map((c: any) => c.image),
    ['app:2', 'side:1'],
  ],
  [
    // Upstream's order: elements the patch names come first unless a live element preceded them.
    'a new keyed element goes before the server-only ones',
    base,
    { spec: { containers: [{ name: 'new', image: 'n' }] } },
    (r) => r.spec.containers.map((c: any) => c.name),
    ['new', 'app', 'side'],
  ],
  [
    'nested keyed merge (env)',
    base,
    {
      spec: {
        containers: [
          {
            name: 'app',
            env: [
              { name: 'B', value: '3' },
              { name: 'C', value: '4' },
            ],
          },
        ],
      },
    },
    (r) => r.spec.containers[0].env,
    [
      { name: 'A', value: '1' },
      { name: 'B', value: '3' },
      { name: 'C', value: '4' },
    ],
  ],
  [
    '$patch: delete in list',
    base,
    { spec: { containers: [{ name: 'side', $patch: 'delete' }] } },
    (r) => r.spec.containers.map((c: any) => c.name),
    ['app'],
  ],
  [
    '$patch: replace in list',
    base,
    { spec: { containers: [{ name: 'only', image: 'o' }, { $patch: 'replace' }] } },
    (r) => r.spec.containers,
    [{ name: 'only', image: 'o' }],
  ],
  [
    '$patch: replace on a map',
    base,
    { metadata: { labels: { $patch: 'replace', x: 'y' } } },
    (r) => r.metadata.labels,
    { x: 'y' },
  ],
  [
    '$patch: delete on a map',
    base,
    { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, $patch: 'delete' }] }] } },
    (r) => r.spec.containers[0].ports,
    [],
  ],
  [
    'null removes a map key',
    base,
    { metadata: { labels: { tier: null } } },
    (r) => r.metadata.labels,
    { app: 'web' },
  ],
  [
    'atomic list replaced',
    base,
    { spec: { tolerations: [{ key: 'k3' }] } },
    (r) => r.spec.tolerations,
    [{ key: 'k3' }],
  ],
  [
    'non-merge scalar list replaced',
    base,
    { spec: { containers: [{ name: 'side', args: ['z'] }] } },
    (r) => r.spec.containers[1].args,
    ['z'],
  ],
  [
    'set list union',
    base,
    { metadata: { finalizers: ['b', 'c'] } },
    (r) => r.metadata.finalizers,
    ['a', 'b', 'c'],
  ],
  [
    '$deleteFromPrimitiveList',
    base,
    { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
    (r) => r.metadata.finalizers,
    ['b'],
  ],
  [
    '$deleteFromPrimitiveList with addition',
    base,
    { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'], finalizers: ['z'] } },
    (r) => r.metadata.finalizers,
    ['z', 'b'],
  ],
  [
    '$setElementOrder',
    base,
    {
      spec: {
        '$setElementOrder/containers': [{ name: 'side' }, { name: 'app' }],
        containers: [{ name: 'app', image: 'app:3' }],
      },
    },
    (r) => r.spec.containers.map((c: any) => `${c.name}=${c.image}`),
    ['side=side:1', 'app=app:3'],
  ],
  [
    '$setElementOrder interleaves server-only elements by server position',
    { spec: { containers: [{ name: 'a' }, { name: 's' }, { name: 'b' }] } },
    { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } },
    (r) => r.spec.containers.map((c: any) => c.name),
    ['s', 'b', 'a'],
  ],
  ['empty merge list keeps original', base, { spec: { containers: [] } }, (r) => r.spec.containers.length, 2],
  [
    '$retainKeys on volumes (merge,retainKeys)',
    base,
    { spec: { volumes: [{ name: 'v1', hostPath: { path: '/x' }, $retainKeys: ['name', 'hostPath'] }] } },
    (r) => r.spec.volumes,
    [{ name: 'v1', hostPath: { path: '/x' } }],
  ],
  [
    'new field created from a patch with nulls',
    {},
    { spec: { a: { b: null, c: 1 } } },
    (r) => r,
    { spec: { a: { c: 1 } } },
  ],
];

describe('applyStrategicMergePatch', () => {
  it.each(cases)('%s', (_n, original, patch, pick, expected) => {
    const before = JSON.stringify(original);
    expect(pick(applyStrategicMergePatch(original, patch, pod))).toEqual(expected);
    expect(JSON.stringify(original)).toBe(before);
  });

  it('$retainKeys on the Deployment strategy', () => {
    const d = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    const r = applyStrategicMergePatch(
      d,
      { spec: { strategy: { type: 'Recreate', $retainKeys: ['type'] } } },
      deployment,
    ) as any;
    expect(r.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('without a schema, lists replace (merge patch semantics)', () => {
    const s: StructuralSchema = { type: 'object' };
    expect(applyStrategicMergePatch({ l: [1, 2], m: { a: 1 } }, { l: [3], m: { b: 2 } }, s)).toEqual({
      l: [3],
      m: { a: 1, b: 2 },
    });
  });

  const errorCases: [string, unknown, RegExp][] = [
    ['not an object', [1], /must be a JSON object/],
    [
      'missing merge key',
      { spec: { template: { spec: { containers: [{ image: 'x' }] } } } },
      /does not contain declared merge key: name/,
    ],
    ['unknown $patch', { metadata: { $patch: 'frob' } }, /Unknown patch type: frob/],
    [
      'retainKeys not covering patch',
      { spec: { strategy: { type: 'Recreate', $retainKeys: ['rollingUpdate'] } } },
      /does not include the key "type"/,
    ],
  ];
  it.each(errorCases)('rejects %s', (_n, patch, message) => {
    expect(() => applyStrategicMergePatch(base, patch, deployment)).toThrow(message);
  });
});

describe('element order (upstream semantics)', () => {
  const mergeItem: StructuralSchema = {
    type: 'object',
    properties: {
      mergingList: {
        type: 'array',
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, value: { type: 'string' }, other: { type: 'string' } },
        },
      },
      mergingIntList: { type: 'array', patchStrategy: 'merge', items: { type: 'integer' } },
    },
  };
  const m = (...names: (string | [string, Record<string, string>])[]) =>
    names.map((n) => (typeof n === 'string' ? { name: n } : { name: n[0], ...n[1] }));
  const cases: [string, Record<string, unknown>, Record<string, unknown>, unknown][] = [
    [
      'the patch order wins for patched elements',
      { mergingList: m('1', ['2', { value: 'b' }], '3') },
      { mergingList: m(['3', { value: 'c' }], ['1', { value: 'a' }], ['2', { other: 'x' }]) },
      { mergingList: m(['3', { value: 'c' }], ['1', { value: 'a' }], ['2', { value: 'b', other: 'x' }]) },
    ],
    [
      'a server-only element keeps its place before later patched ones',
      { mergingList: m('1', ['2', { value: 'b' }], '3') },
      { mergingList: m(['3', { value: 'c' }], ['1', { value: 'a' }]) },
      { mergingList: m(['2', { value: 'b' }], ['3', { value: 'c' }], ['1', { value: 'a' }]) },
    ],
    [
      'scalars: patch order',
      { mergingIntList: [1, 2, 3] },
      { mergingIntList: [3, 1, 2] },
      { mergingIntList: [3, 1, 2] },
    ],
    [
      'scalars: server-only first when it came first',
      { mergingIntList: [1, 2, 3] },
      { mergingIntList: [3, 1] },
      { mergingIntList: [2, 3, 1] },
    ],
    [
      'scalars: union without duplicates',
      { mergingIntList: [1, 2] },
      { mergingIntList: [2, 3] },
      { mergingIntList: [1, 2, 3] },
    ],
    [
      '$setElementOrder naming an element that is not there',
      { mergingList: m('1', '3') },
      {
        '$setElementOrder/mergingList': m('3', '2', '1'),
        mergingList: m(['3', { value: '3' }], ['1', { value: '1' }]),
      },
      { mergingList: m(['3', { value: '3' }], ['1', { value: '1' }]) },
    ],
    [
      '$setElementOrder on scalars without a patch list',
      { mergingIntList: [1, 3] },
      { '$setElementOrder/mergingIntList': [3, 2, 1] },
      { mergingIntList: [3, 1] },
    ],
    [
      '$setElementOrder with deletions',
      { mergingIntList: [1, 2, 3, 4] },
      { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [1, 2, 4] },
    ],
    [
      '$setElementOrder adding elements',
      { mergingList: m('1', ['2', { value: '2' }]) },
      {
        '$setElementOrder/mergingList': m('4', '1', '2', '3'),
        mergingList: m(['4', { value: '4' }], ['3', { value: '3' }]),
      },
      { mergingList: m(['4', { value: '4' }], '1', ['2', { value: '2' }], ['3', { value: '3' }]) },
    ],
    [
      '$patch: replace empties a list',
      { mergingList: m('1', '2') },
      { mergingList: [{ $patch: 'replace' }] },
      { mergingList: [] },
    ],
    [
      '$patch: replace on the map',
      { name: '1', value: '1' },
      { other: 'a', $patch: 'replace' },
      { other: 'a' },
    ],
  ];
  it.each(cases)('%s', (_n, original, patch, expected) => {
    expect(applyStrategicMergePatch(original, patch, mergeItem)).toEqual(expected);
  });
  it('rejects a $setElementOrder that contradicts the patch list', () => {
    expect(() =>
      applyStrategicMergePatch(
        { mergingList: m('1', '3', '2') },
        { '$setElementOrder/mergingList': m('1', '2', '3'), mergingList: m('3', '1') },
        mergeItem,
      ),
    ).toThrow(/doesn't match/);
  });
  it('rejects $patch: merge inside a list', () => {
    expect(() =>
      applyStrategicMergePatch(
        { mergingList: m('1') },
        { mergingList: [{ name: '1', $patch: 'merge' }] },
        mergeItem,
      ),
    ).toThrow(/merging lists cannot yet be specified/);
  });
});

describe('long lists', () => {
  it('merges two 20 000-element keyed lists (no pairwise search)', () => {
    const schema: StructuralSchema = {
      type: 'object',
      properties: {
        l: { type: 'array', patchStrategy: 'merge', patchMergeKey: 'name', items: { type: 'object' } },
      },
    };
    const live = { l: Array.from({ length: 20_000 }, (_, i) => ({ name: `n${i}`, v: 0 })) };
    const patch = { l: Array.from({ length: 20_000 }, (_, i) => ({ name: `n${i * 2}`, v: 1 })) };
    const out = applyStrategicMergePatch(live, patch, schema) as { l: { name: string; v: number }[] };
    expect(out.l).toHaveLength(30_000);
    expect(out.l.filter((e) => e.v === 1)).toHaveLength(20_000);
    expect(new Set(out.l.map((e) => e.name)).size).toBe(30_000);
  });
});
