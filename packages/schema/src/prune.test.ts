import { describe, expect, it } from 'vitest';
import { applyDefaults } from './defaults.js';
import { prune } from './prune.js';
import type { StructuralSchema } from './structural.js';

const schema: StructuralSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'fast' },
        opt: { type: 'string', nullable: true, default: 'x' },
        list: {
          type: 'array',
          items: { type: 'object', properties: { a: { type: 'string', default: 'A' } } },
        },
        free: {
          type: 'object',
          preserveUnknownFields: true,
          properties: { known: { type: 'object', properties: { k: { type: 'string' } } } },
        },
        map: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { v: { type: 'string' } } },
        },
        nested: { type: 'object', default: {}, properties: { inner: { type: 'integer', default: 7 } } },
        embedded: {
          type: 'object',
          embeddedResource: true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
      },
    },
  },
};

describe('prune', () => {
  const cases: [string, unknown, unknown, string[]][] = [
    [
      'unknown top-level field',
      { apiVersion: 'v', kind: 'K', metadata: { name: 'a' }, spec: {}, foo: 1 },
      { apiVersion: 'v', kind: 'K', metadata: { name: 'a' }, spec: {} },
      ['foo'],
    ],
    [
      'unknown nested field',
      { spec: { replicas: 1, bogus: true } },
      { spec: { replicas: 1 } },
      ['spec.bogus'],
    ],
    [
      'in list items',
      { spec: { list: [{ a: 'x', b: 1 }, { c: 2 }] } },
      { spec: { list: [{ a: 'x' }, {}] } },
      ['spec.list[0].b', 'spec.list[1].c'],
    ],
    [
      'preserve unknown keeps unknown, prunes inside known',
      { spec: { free: { any: { deep: 1 }, known: { k: 'v', z: 1 } } } },
      { spec: { free: { any: { deep: 1 }, known: { k: 'v' } } } },
      ['spec.free.known.z'],
    ],
    [
      'map values pruned',
      { spec: { map: { a: { v: '1', w: '2' } } } },
      { spec: { map: { a: { v: '1' } } } },
      ['spec.map.a.w'],
    ],
    [
      'metadata pruned against ObjectMeta',
      { metadata: { name: 'a', labels: { x: 'y' }, bogus: 1 } },
      { metadata: { name: 'a', labels: { x: 'y' } } },
      ['metadata.bogus'],
    ],
    [
      'embedded resource keeps apiVersion/kind/metadata',
      {
        spec: {
          embedded: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'p', nope: 1 },
            spec: { x: 'a', y: 'b' },
            other: 1,
          },
        },
      },
      { spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'a' } } } },
      ['spec.embedded.metadata.nope', 'spec.embedded.spec.y', 'spec.embedded.other'],
    ],
  ];
  it.each(cases)('%s', (_n, input, output, removed) => {
    const v = structuredClone(input);
    expect(prune(v, schema)).toEqual(removed);
    expect(v).toEqual(output);
  });

  it('does not treat a non-root value as a resource', () => {
    const v = { apiVersion: 'x', spec: {} };
    expect(prune(v, schema, { isResourceRoot: false })).toEqual(['apiVersion']);
  });
});

describe('applyDefaults', () => {
  const cases: [string, unknown, unknown][] = [
    ['missing fields', { spec: {} }, { spec: { replicas: 1, mode: 'fast', opt: 'x', nested: { inner: 7 } } }],
    [
      'present values kept',
      { spec: { replicas: 3, mode: 'slow', opt: 'y', nested: { inner: 1 } } },
      { spec: { replicas: 3, mode: 'slow', opt: 'y', nested: { inner: 1 } } },
    ],
    [
      'null in non-nullable defaulted, nullable kept',
      { spec: { replicas: null, opt: null, nested: {} } },
      { spec: { replicas: 1, mode: 'fast', opt: null, nested: { inner: 7 } } },
    ],
    [
      'list items',
      { spec: { list: [{}, { a: 'z' }], nested: {} } },
      { spec: { replicas: 1, mode: 'fast', opt: 'x', list: [{ a: 'A' }, { a: 'z' }], nested: { inner: 7 } } },
    ],
    ['missing parent not created', {}, {}],
    [
      'null without a default dropped',
      { spec: { mode: null, list: null, map: { a: null }, nested: {} } },
      { spec: { replicas: 1, mode: 'fast', opt: 'x', map: {}, nested: { inner: 7 } } },
    ],
  ];
  it.each(cases)('%s', (_n, input, output) => {
    expect(applyDefaults(structuredClone(input), schema)).toEqual(output);
  });
  it('copies defaults rather than sharing them', () => {
    const a = applyDefaults({ spec: {} }, schema) as any;
    a.spec.nested.inner = 99;
    const b = applyDefaults({ spec: {} }, schema) as any;
    expect(b.spec.nested.inner).toBe(7);
  });
});
