import type { StoredObject } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { describe, expect, it } from 'vitest';
import { ObjectStore } from './object-store.js';
import { SharedValues } from './shared-values.js';

const encoder = new TextEncoder();

/** A kubectl-like stored object: the same labels, manager and fieldsV1 set whatever the name. */
function stored(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: '2026-11-26T15:00:00Z',
      labels: { app: 'web', tier: 'front' },
      managedFields: [
        {
          manager: 'kubectl-client-side-apply',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-11-26T15:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } },
        },
      ],
      ...extra,
    },
    data: { a: name },
  };
}

describe('SharedValues', () => {
  it('hands every decoded object the one frozen copy of a repeated fieldsV1 set and label map, serializing to the same bytes', async () => {
    const store = createMemoryStore();
    const o = new ObjectStore(store);
    const objs: StoredObject[] = [];
    for (const name of ['a', 'b']) {
      const kv = await store.create(
        `/core/configmaps/default/${name}`,
        encoder.encode(JSON.stringify(stored(name))),
      );
      const obj = o.decodeShared(kv);
      // Byte-identical to a plain decode of the same value.
      expect(JSON.stringify(obj)).toBe(JSON.stringify(o.decode(kv)));
      objs.push(obj);
    }
    const [a, b] = objs as [StoredObject, StoredObject];
    const fields = (x: StoredObject) => (x.metadata.managedFields ?? [])[0]?.fieldsV1;
    expect(fields(a)).toBe(fields(b));
    expect(a.metadata.labels).toBe(b.metadata.labels);
    expect(a.metadata.managedFields).toBe(b.metadata.managedFields);
    expect(Object.isFrozen(fields(a))).toBe(true);
    expect(Object.isFrozen((fields(a) as Record<string, object>)['f:data'])).toBe(true);
    expect(a.data).not.toBe(b.data);
  });

  it('shares only values with exactly the same JSON (key order included)', () => {
    const sv = new SharedValues();
    const x = structuredClone(stored('b')) as StoredObject;
    const y = structuredClone(stored('c', { labels: { tier: 'front', app: 'web' } })) as StoredObject;
    sv.compact(x);
    sv.compact(y);
    expect(x.metadata.labels).not.toBe(y.metadata.labels);
    expect(JSON.stringify(y.metadata.labels)).toBe('{"tier":"front","app":"web"}');
  });

  it('leaves hostile and oversized values as they are: a __proto__ key is kept as data, a huge map is not interned', () => {
    const sv = new SharedValues();
    const huge = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v']));
    const hostile = JSON.parse('{"metadata":{"name":"h","labels":{"__proto__":{"x":"1"}},"annotations":{}}}');
    const big = { metadata: { name: 'big', labels: huge } } as unknown as StoredObject;
    const again = structuredClone(big);
    sv.compact(big);
    sv.compact(again);
    expect(big.metadata.labels).not.toBe(again.metadata.labels);
    const twin = JSON.parse(JSON.stringify(hostile));
    sv.compact(hostile);
    sv.compact(twin);
    expect(twin.metadata.labels).toBe(hostile.metadata.labels);
    expect(Object.getPrototypeOf(twin.metadata.labels)).toBe(Object.prototype);
    expect(JSON.stringify(twin)).toBe(
      '{"metadata":{"name":"h","labels":{"__proto__":{"x":"1"}},"annotations":{}}}',
    );
    // managedFields of the wrong type are ignored, not a crash.
    const wrong = {
      metadata: { name: 'w', managedFields: [1, null, 'x', { fieldsV1: 3 }] },
    } as unknown as StoredObject;
    expect(() => sv.compact(wrong)).not.toThrow();
  });
});
