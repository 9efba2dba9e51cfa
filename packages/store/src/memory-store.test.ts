import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import { runStoreConformance } from './testing/store-conformance.js';

runStoreConformance('memory', () => createMemoryStore(), {
  durability: { durable: false },
  createAll: true,
});

const bytes = (s: string) => new TextEncoder().encode(s);

describe('memory store specifics', () => {
  it('auto-compaction keeps history bounded', async () => {
    const st = createMemoryStore({ autoCompactRetainRevisions: 10 });
    await st.create('/k', new Uint8Array([0]));
    for (let i = 0; i < 100; i++) await st.update('/k', () => new Uint8Array([i]));
    expect(await st.compactedRevision()).toBeGreaterThan(50);
    expect((await st.get('/k')).kv?.value[0]).toBe(99);
  });

  it('reads every revision of a key as it goes from one version to a history and back (compaction)', async () => {
    const st = createMemoryStore();
    const v = (n: number) => new Uint8Array([n]);
    const a1 = await st.create('/a', v(1));
    const a2 = await st.update('/a', () => v(2));
    const b1 = await st.create('/b', v(3));
    const gone = await st.delete('/b');
    const a3 = await st.update('/a', () => v(4));
    const valueAt = async (key: string, at: number) => (await st.get(key, { atRevision: at })).kv?.value[0];
    expect([await valueAt('/a', a1.modRevision), await valueAt('/a', a2.modRevision)]).toEqual([1, 2]);
    expect([await valueAt('/b', b1.modRevision), await valueAt('/b', gone.modRevision)]).toEqual([
      3,
      undefined,
    ]);
    await st.compact(a2.modRevision);
    expect(await valueAt('/a', a2.modRevision)).toBe(2);
    expect(await valueAt('/a', a3.modRevision)).toBe(4);
    expect(await valueAt('/b', b1.modRevision)).toBe(3);
    await st.compact(a3.modRevision);
    expect((await st.list('/')).kvs.map((kv) => [kv.key, kv.value[0], kv.createRevision])).toEqual([
      ['/a', 4, a1.modRevision],
    ]);
    const later = await st.update('/a', () => v(5));
    expect((await st.get('/a', { atRevision: a3.modRevision })).kv?.value[0]).toBe(4);
    expect((await st.get('/a')).kv?.modRevision).toBe(later.modRevision);
  });

  it('keeps a compacted value byte for byte (packed): every byte value, 1.5 MiB, revisions past 2^32', async () => {
    const st = createMemoryStore();
    const every = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);
    const big = Uint8Array.from({ length: 1.5 * 2 ** 20 }, (_, i) => (i * 31) % 251);
    const empty = new Uint8Array(0);
    const a = await st.create('/a', every);
    const b = await st.create('/b', big);
    const c = await st.create('/c', empty);
    await st.compact(c.modRevision);
    // Packing runs in the background, a batch per turn of the event loop.
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    const read = await st.list('/');
    expect(read.kvs.map((kv) => [kv.key, kv.createRevision, kv.modRevision])).toEqual([
      ['/a', a.createRevision, a.modRevision],
      ['/b', b.createRevision, b.modRevision],
      ['/c', c.createRevision, c.modRevision],
    ]);
    expect(read.kvs[0]?.value).toEqual(every);
    // Compared as buffers: a deep equality over 1.5 MiB took seconds.
    expect(Buffer.compare(read.kvs[1]!.value, big)).toBe(0);
    expect(read.kvs[2]?.value).toEqual(empty);
    // A read gets bytes of its own: changing them changes nothing stored.
    read.kvs[0]!.value[0] = 99;
    expect((await st.get('/a')).kv?.value).toEqual(every);
    // An update of a packed key keeps the packed revision readable until the next compaction.
    const a2 = await st.update('/a', () => new Uint8Array([1]));
    expect((await st.get('/a', { atRevision: c.modRevision })).kv?.value).toEqual(every);
    expect((await st.get('/a')).kv).toMatchObject({
      createRevision: a.createRevision,
      modRevision: a2.modRevision,
    });
    await st.delete('/b');
    await st.compact(await st.currentRevision());
    expect((await st.list('/')).kvs.map((kv) => kv.key)).toEqual(['/a', '/c']);
  });

  it('packs every key a compaction passed, also when it comes while a packing pass runs (white box)', async () => {
    const st = createMemoryStore();
    const value = new Uint8Array(1024);
    for (let i = 0; i < 1000; i++) await st.create(`/k/${String(i).padStart(4, '0')}`, value);
    // The first 200 keys get a second version after the compaction point: the first pass skips them.
    const at = await st.currentRevision();
    for (let i = 0; i < 200; i++) await st.update(`/k/${String(i).padStart(4, '0')}`, () => value);
    await st.compact(at);
    await new Promise((r) => setImmediate(r));
    // While that pass is still running (a turn packs ~128 KiB), a compaction makes the 200 packable.
    await st.compact(await st.currentRevision());
    const unpacked = (st as unknown as { unpacked: Set<string> }).unpacked;
    for (let turn = 0; turn < 100 && unpacked.size > 0; turn++) await new Promise((r) => setImmediate(r));
    expect(unpacked.size).toBe(0);
    expect((await st.list('/k/')).kvs).toHaveLength(1000);
  });

  it('packs revisions above 2^32 exactly', async () => {
    const { packValue, unpackValue } = await import('./packed-value.js');
    const kv = {
      key: '/k',
      value: new Uint8Array([0, 255]),
      createRevision: 2 ** 40 + 3,
      modRevision: Number.MAX_SAFE_INTEGER,
    };
    expect(unpackValue('/k', packValue(kv))).toEqual(kv);
  });

  it('createAll: each entry at its own revision, in order, watched as one put each', async () => {
    const st = createMemoryStore();
    await st.create('/a/0', bytes('zero'));
    const it = st.watch('/a/', { fromRevision: 1 })[Symbol.asyncIterator]();
    const kvs = await st.createAll!([
      { key: '/a/2', value: bytes('two') },
      { key: '/a/1', value: bytes('one') },
      { key: '/b/1', value: bytes('other prefix') },
    ]);
    expect(kvs.map((kv) => [kv.key, kv.createRevision, kv.modRevision])).toEqual([
      ['/a/2', 2, 2],
      ['/a/1', 3, 3],
      ['/b/1', 4, 4],
    ]);
    expect(await st.currentRevision()).toBe(4);
    const seen = [(await it.next()).value, (await it.next()).value];
    expect(seen.map((e) => [e.type, e.kv.key, e.revision])).toEqual([
      ['put', '/a/2', 2],
      ['put', '/a/1', 3],
    ]);
    await it.return?.();
    expect(new TextDecoder().decode((await st.get('/a/1')).kv!.value)).toBe('one');
    expect((await st.createAll!([])).length).toBe(0);
    expect(await st.currentRevision()).toBe(4);
  });

  it('createAll writes nothing when a key exists or repeats (AlreadyExists)', async () => {
    const st = createMemoryStore();
    await st.create('/k/taken', bytes('x'));
    for (const entries of [
      [
        { key: '/k/new', value: bytes('a') },
        { key: '/k/taken', value: bytes('b') },
      ],
      [
        { key: '/k/twice', value: bytes('a') },
        { key: '/k/twice', value: bytes('b') },
      ],
    ]) {
      await expect(st.createAll!(entries)).rejects.toMatchObject({ code: 'AlreadyExists' });
      expect(await st.currentRevision()).toBe(1);
      expect((await st.list('/k/')).kvs.map((kv) => kv.key)).toEqual(['/k/taken']);
    }
    await st.close();
    await expect(st.createAll!([{ key: '/k/late', value: bytes('a') }])).rejects.toMatchObject({
      code: 'Unavailable',
    });
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
