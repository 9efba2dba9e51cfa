import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import { runStoreConformance } from './testing/store-conformance.js';

runStoreConformance('memory', () => createMemoryStore(), { durability: { durable: false } });

describe('memory store specifics', () => {
  it('auto-compaction keeps history bounded', async () => {
    const st = createMemoryStore({ autoCompactRetainRevisions: 10 });
    await st.create('/k', new Uint8Array([0]));
    for (let i = 0; i < 100; i++) await st.update('/k', () => new Uint8Array([i]));
    expect(await st.compactedRevision()).toBeGreaterThan(50);
    expect((await st.get('/k')).kv?.value[0]).toBe(99);
  });

  it('ends watches on close', async () => {
    const st = createMemoryStore();
    const it = st.watch('/', { fromRevision: 0 })[Symbol.asyncIterator]();
    const next = it.next();
    await st.close();
    expect((await next).done).toBe(true);
  });
});

describe('memory store at scale', () => {
  it('compaction with 200k surviving keys keeps every key listable (it threw a RangeError and emptied the index)', async () => {
    const store = createMemoryStore();
    const value = new Uint8Array([1]);
    for (let i = 0; i < 200_000; i++) await store.create(`/k/${String(i).padStart(6, '0')}`, value);
    await store.delete('/k/000000');
    await store.compact(await store.currentRevision());
    const list = await store.list('/k/');
    expect(list.kvs).toHaveLength(199_999);
    expect(list.kvs[0]?.key).toBe('/k/000001');
    const page = await store.list('/k/', { startKey: '/k/100000', limit: 2 });
    expect(page.kvs.map((kv) => kv.key)).toEqual(['/k/100000', '/k/100001']);
    await store.close();
  });
});
