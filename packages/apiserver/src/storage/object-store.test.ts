import { jsonCodec } from '@orchard/codecs';
import type { StoredObject } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { encodedOnce } from '@orchard/watch-cache';
import { describe, expect, it } from 'vitest';
import { isUndecodableObjectError, ObjectStore } from './object-store.js';

describe('ObjectStore', () => {
  it('lays keys out as /<group>/<resource>/<namespace>/<name>', () => {
    const o = new ObjectStore(createMemoryStore());
    expect(o.key({ group: '', resource: 'configmaps', namespace: 'ns' }, 'a')).toBe('/core/configmaps/ns/a');
    expect(o.key({ group: '', resource: 'namespaces', namespace: '' }, 'a')).toBe('/core/namespaces/a');
    expect(o.prefix({ group: 'coordination.orch.io', resource: 'leases', namespace: '' })).toBe(
      '/coordination.orch.io/leases/',
    );
  });

  it('stores JSON without resourceVersion and serves the modRevision as resourceVersion', async () => {
    const store = createMemoryStore();
    const o = new ObjectStore(store);
    const key = '/core/configmaps/ns/a';
    const created = await o.create(key, {
      kind: 'ConfigMap',
      metadata: { name: 'a', resourceVersion: '99' },
    });
    const raw = JSON.parse(new TextDecoder().decode((await store.get(key)).kv?.value));
    expect(raw.metadata.resourceVersion).toBeUndefined();
    expect(created.metadata.resourceVersion).toBe(String(await store.currentRevision()));
    const updated = await o.update(key, (cur) => ({ ...cur, data: { x: '1' } }));
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.metadata.resourceVersion),
    );
    const deleted = await o.delete(key);
    expect(deleted.metadata.resourceVersion).toBe(String(await store.currentRevision()));
  });

  it('surfaces an undecodable stored value as a typed error naming the key', async () => {
    const store = createMemoryStore();
    await store.create('/core/configmaps/ns/bad', new TextEncoder().encode('{not json'));
    const o = new ObjectStore(store);
    let err: unknown;
    try {
      await o.get('/core/configmaps/ns/bad');
    } catch (e) {
      err = e;
    }
    expect(isUndecodableObjectError(err)).toBe(true);
    expect((err as Error).message).toContain('/core/configmaps/ns/bad');
  });

  it('turns store events into ADDED / MODIFIED / DELETED with the previous object', async () => {
    const store = createMemoryStore();
    const o = new ObjectStore(store);
    const from = await store.currentRevision();
    const key = '/core/configmaps/ns/w';
    await o.create(key, { metadata: { name: 'w' } });
    await o.update(key, (cur) => ({ ...cur, data: { a: 'b' } }));
    await o.delete(key);
    const ac = new AbortController();
    const seen: string[] = [];
    for await (const ev of o.watch('/core/configmaps/', from, ac.signal)) {
      seen.push(`${ev.type}${ev.previous ? '+prev' : ''}`);
      if (seen.length === 3) ac.abort();
    }
    expect(seen).toEqual(['ADDED', 'MODIFIED+prev', 'DELETED+prev']);
  });

  it('decodes a stored revision once for its readers: the create result is the frozen object every decodeShared gets', async () => {
    const store = createMemoryStore();
    const o = new ObjectStore(store);
    const key = '/core/configmaps/ns/shared';
    const created = await o.create(
      key,
      {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { name: 'shared', namespace: 'ns' },
        data: { a: '1' },
      },
      { shared: true },
    );
    expect(Object.isFrozen(created) && Object.isFrozen(created.metadata)).toBe(true);
    expect(Object.isFrozen((created as { data?: object }).data)).toBe(true);
    const { kv } = await store.get(key);
    if (!kv) throw new Error('not stored');
    // Another backend hands out another KeyValue for the same revision: same object all the same.
    expect(o.decodeShared({ ...kv })).toBe(created);
    expect(() => {
      (created.metadata as { name: string }).name = 'changed';
    }).toThrow(TypeError);
    // A new revision is a new object; the plain decode stays a private, mutable copy.
    const updated = await o.update(key, (cur) => ({ ...cur, data: { a: '2' } }));
    const { kv: kv2 } = await store.get(key);
    if (!kv2) throw new Error('not stored');
    const shared2 = o.decodeShared(kv2);
    expect(shared2).not.toBe(created);
    expect(shared2).toEqual(updated);
    expect(Object.isFrozen(o.decode(kv2))).toBe(false);
  });

  it('gives a watcher that sees a primed write before the writer does the built object, not a parse', async () => {
    const store = createMemoryStore();
    const o = new ObjectStore(store);
    const key = '/core/configmaps/ns/p';
    const bytes = new TextEncoder().encode('{"kind":"ConfigMap","metadata":{"name":"p","uid":"u"}}');
    const built: object[] = [];
    const build = (rev: number): StoredObject => {
      const obj = Object.freeze({
        kind: 'ConfigMap',
        metadata: Object.freeze({ name: 'p', uid: 'u', resourceVersion: String(rev) }),
      });
      built.push(obj);
      return obj;
    };
    o.primeBytes(bytes, build);
    const seen: unknown[] = [];
    const ac = new AbortController();
    const watching = (async () => {
      for await (const ev of store.watch('/core/', { fromRevision: 0, signal: ac.signal })) {
        seen.push(o.decodeShared(ev.kv));
        ac.abort();
      }
    })();
    const kv = await store.create(key, bytes);
    await watching;
    const shared = o.decodeShared(kv);
    expect(seen[0]).toBe(built[0]);
    expect(shared).toBe(built[0]);
    expect(JSON.stringify(shared)).toBe(JSON.stringify(o.decode(kv)));
    // The writer's later primeShared keeps the object readers already hold, without building another.
    o.primeShared(kv, build);
    expect(o.decodeShared(kv)).toBe(shared);
    expect(built).toHaveLength(1);
    // Other bytes with the same content are parsed as usual.
    const other = await store.create('/core/configmaps/ns/q', bytes.slice());
    expect(o.decodeShared(other)).not.toBe(shared);
  });

  it('gives a shared object the bytes a plain decode gives, for stored values of any shape', async () => {
    const store = createMemoryStore();
    const o = new ObjectStore(store);
    const enc = new TextEncoder();
    const values = [
      '{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"x":"\\"metadata\\":{}"}}',
      ' { "metadata" : { } } ',
      '{"metadata":{"resourceVersion":"1","name":"b","labels":{"a":"}"}}}',
      '{"metadata":{"name":"c"},"metadata":{"name":"d"}}',
      '{"metad\\u0061ta":{"name":"e"}}',
      '{"spec":{"metadata":{"name":"inner"}},"metadata":{"name":"f"}}',
      '{"metadata":[]}',
    ];
    for (const [i, v] of values.entries()) {
      const kv = await store.create(`/core/configmaps/ns/v${i}`, enc.encode(v));
      expect(JSON.stringify(o.decodeShared(kv)), v).toBe(JSON.stringify(o.decode(kv)));
    }
    for (const bad of ['{"metadata":null}', '{"metadata":{"a":1}', '[]']) {
      const kv = await store.create(`/core/configmaps/ns/bad${bad.length}`, enc.encode(bad));
      expect(() => o.decodeShared(kv)).toThrow(/failed to decode the object stored at/);
    }
  });

  it('keeps a shared create result with the JSON bytes JSON.stringify gives it, whoever decoded it first', async () => {
    const store = createMemoryStore();
    const o = new ObjectStore(store);
    const unusual = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: '7', name: 'u', namespace: 'ns', labels: { '2': 'b', '1': 'a', z: '' } },
      data: { '\u2028': 'lone \ud800 surrogate, "quotes", \\ and ✓', '10': '', __proto__x: '' },
      spec: { n: [1e21, -0, 0.1, 5e-324, null, true], ['__proto__']: { x: 1 } },
    };
    const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    const kept = (obj: object) =>
      encodedOnce(obj, jsonCodec, () => {
        throw new Error('no bytes were kept');
      });
    // Nobody decoded the revision before the writer.
    const created = await o.create('/core/configmaps/ns/u', unusual, { shared: true });
    expect(new TextDecoder().decode(kept(created))).toBe(JSON.stringify(created));
    expect(kept(created)).toEqual(json(created));
    // A watcher decoded it first: the writer keeps the bytes beside the watcher's object.
    const ac = new AbortController();
    let watched: StoredObject | undefined;
    const watching = (async () => {
      for await (const ev of store.watch('/core/', {
        fromRevision: await store.currentRevision(),
        signal: ac.signal,
      })) {
        watched = o.decodeShared(ev.kv);
        ac.abort();
      }
    })();
    const second = await o.create(
      '/core/configmaps/ns/v',
      { ...unusual, metadata: { name: 'v' } },
      { shared: true },
    );
    await watching;
    expect(second).toBe(watched);
    expect(kept(second)).toEqual(json(second));
    // A create that is not shared keeps nothing.
    const plain = await o.create('/core/configmaps/ns/w', { metadata: { name: 'w' } });
    expect(() => kept(plain)).toThrow('no bytes were kept');
  });
});
