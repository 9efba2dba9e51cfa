import { expect, it } from 'vitest';
import { isStoreError } from '../errors.js';
import { bytesEqual, type ConformanceSuite, collect, s, v } from './conformance-helpers.js';

/** Reads: prefix lists with limit/startKey/remaining, snapshots at past revisions, FutureRevision, opaque values and unusual keys round-tripping. */
export function conformanceReads(suite: ConformanceSuite): void {
  const { makeStore } = suite;
  it('lists a prefix in key order with limit, startKey and remaining', async () => {
    const st = await makeStore();
    for (const k of ['c', 'a', 'e', 'b', 'd']) await st.create(`/p/${k}`, v(k));
    await st.create('/q/z', v('z'));
    const all = await st.list('/p/');
    expect(all.kvs.map((kv) => kv.key)).toEqual(['/p/a', '/p/b', '/p/c', '/p/d', '/p/e']);
    expect(all.remaining).toBe(0);
    const page = await st.list('/p/', { limit: 2 });
    expect(page.kvs.map((kv) => kv.key)).toEqual(['/p/a', '/p/b']);
    expect(page.remaining).toBe(3);
    const next = await st.list('/p/', { limit: 2, startKey: '/p/b\u0000', atRevision: page.revision });
    expect(next.kvs.map((kv) => kv.key)).toEqual(['/p/c', '/p/d']);
    expect(next.remaining).toBe(1);
    await st.close();
  });

  it('reads a consistent snapshot at a past revision', async () => {
    const st = await makeStore();
    await st.create('/p/a', v('a1'));
    const snap = await st.currentRevision();
    await st.update('/p/a', () => v('a2'));
    await st.create('/p/b', v('b1'));
    await st.delete('/p/a');
    const old = await st.list('/p/', { atRevision: snap });
    expect(old.kvs.map((kv) => s(kv.value))).toEqual(['a1']);
    expect(old.revision).toBe(snap);
    expect(s((await st.get('/p/a', { atRevision: snap })).kv?.value)).toBe('a1');
    expect((await st.get('/p/a')).kv).toBeUndefined();
    expect((await st.list('/p/')).kvs.map((kv) => s(kv.value))).toEqual(['b1']);
    await st.close();
  });

  it('rejects reads above the current revision with FutureRevision', async () => {
    const st = await makeStore();
    await st.create('/k', v('1'));
    const cur = await st.currentRevision();
    await expect(st.get('/k', { atRevision: cur + 10 })).rejects.toSatisfy((e) =>
      isStoreError(e, 'FutureRevision'),
    );
    await expect(st.list('/', { atRevision: cur + 10 })).rejects.toSatisfy((e) =>
      isStoreError(e, 'FutureRevision'),
    );
    await st.close();
  });

  it('values are opaque bytes: undecodable, empty and binary values round-trip exactly through get, list and watch', async () => {
    const st = await makeStore();
    const start = await st.currentRevision();
    const bad = new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x80, 0x00, 0x7b]);
    const empty = new Uint8Array(0);
    const all256 = Uint8Array.from({ length: 256 }, (_, i) => i);
    await st.create('/b/bad', bad);
    await st.create('/b/empty', empty);
    await st.create('/b/all', all256);
    expect(bytesEqual((await st.get('/b/bad')).kv!.value, bad)).toBe(true);
    expect((await st.get('/b/empty')).kv!.value.length).toBe(0);
    const listed = await st.list('/b/');
    expect(listed.kvs.map((kv) => kv.key)).toEqual(['/b/all', '/b/bad', '/b/empty']);
    expect(bytesEqual(listed.kvs[0]!.value, all256)).toBe(true);
    expect(bytesEqual(listed.kvs[1]!.value, bad)).toBe(true);
    const events = await collect(st, '/b/', start, 3);
    expect(bytesEqual(events[0]!.kv.value, bad)).toBe(true);
    expect(events[1]!.kv.value.length).toBe(0);
    const upd = await st.update('/b/bad', (cur) => {
      expect(bytesEqual(cur.value, bad)).toBe(true);
      return all256;
    });
    expect(bytesEqual(upd.value, all256)).toBe(true);
    const del = await st.delete('/b/empty');
    expect(del.value.length).toBe(0);
    await st.close();
  });

  it('keys with unusual characters are kept verbatim and ordered by code unit', async () => {
    const st = await makeStore();
    const keys = [
      '/u/__proto__',
      '/u/constructor',
      '/u/a b',
      '/u/é',
      '/u/%2F',
      '/u/a\u0000b',
      '/u/日本',
      '/u/Z',
    ];
    for (const k of keys) await st.create(k, v(k));
    const listed = (await st.list('/u/')).kvs.map((kv) => kv.key);
    expect(listed).toEqual([...keys].sort());
    for (const k of keys) expect(s((await st.get(k)).kv?.value)).toBe(k);
    expect((await st.list('/u/_')).kvs.map((kv) => kv.key)).toEqual(['/u/__proto__']);
    await st.close();
  });
}
