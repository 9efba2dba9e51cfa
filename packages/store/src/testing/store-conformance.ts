import { describe, expect, it } from 'vitest';
import { isStoreError } from '../errors.js';
import type { Store, StoreEvent } from '../store.js';

/**
 * The suite every Store backend must pass. Call it from a test file with a factory that returns a
 * fresh, empty store: `runStoreConformance('memory', () => createMemoryStore())`.
 */
export function runStoreConformance(name: string, makeStore: () => Store | Promise<Store>): void {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const v = (s: string) => enc.encode(s);
  const s = (b: Uint8Array | undefined) => (b ? dec.decode(b) : undefined);

  async function collect(
    store: Store,
    prefix: string,
    fromRevision: number,
    count: number,
  ): Promise<StoreEvent[]> {
    const ac = new AbortController();
    const out: StoreEvent[] = [];
    for await (const e of store.watch(prefix, { fromRevision, signal: ac.signal })) {
      out.push(e);
      if (out.length >= count) break;
    }
    ac.abort();
    return out;
  }

  describe(`Store conformance: ${name}`, () => {
    it('gives every write the next global revision', async () => {
      const st = await makeStore();
      const r0 = await st.currentRevision();
      const a = await st.create('/a/1', v('x'));
      const b = await st.create('/b/1', v('y'));
      expect(a.modRevision).toBeGreaterThan(r0);
      expect(b.modRevision).toBeGreaterThan(a.modRevision);
      const u = await st.update('/a/1', () => v('x2'));
      expect(u.modRevision).toBeGreaterThan(b.modRevision);
      expect(u.createRevision).toBe(a.createRevision);
      expect(await st.currentRevision()).toBe(u.modRevision);
      await st.close();
    });

    it('rejects a duplicate create with AlreadyExists and a missing key with NotFound', async () => {
      const st = await makeStore();
      await st.create('/k', v('1'));
      await expect(st.create('/k', v('2'))).rejects.toSatisfy((e) => isStoreError(e, 'AlreadyExists'));
      await expect(st.update('/missing', () => v('x'))).rejects.toSatisfy((e) => isStoreError(e, 'NotFound'));
      await expect(st.delete('/missing')).rejects.toSatisfy((e) => isStoreError(e, 'NotFound'));
      expect(s((await st.get('/k')).kv?.value)).toBe('1');
      await st.close();
    });

    it('compare-and-swap: update and delete with a stale expectedRevision conflict and change nothing', async () => {
      const st = await makeStore();
      const c = await st.create('/k', v('1'));
      await st.update('/k', () => v('2'));
      await expect(st.update('/k', () => v('3'), { expectedRevision: c.modRevision })).rejects.toSatisfy(
        (e) => isStoreError(e, 'Conflict'),
      );
      await expect(st.delete('/k', { expectedRevision: c.modRevision })).rejects.toSatisfy((e) =>
        isStoreError(e, 'Conflict'),
      );
      expect(s((await st.get('/k')).kv?.value)).toBe('2');
      await st.close();
    });

    it('an aborting tryUpdate or delete check leaves the value untouched', async () => {
      const st = await makeStore();
      await st.create('/k', v('1'));
      await expect(
        st.update('/k', () => {
          throw new Error('nope');
        }),
      ).rejects.toThrow('nope');
      await expect(
        st.delete('/k', {
          check: () => {
            throw new Error('precondition');
          },
        }),
      ).rejects.toThrow('precondition');
      expect(s((await st.get('/k')).kv?.value)).toBe('1');
      await st.close();
    });

    it('concurrent updates are serialized: none is lost', async () => {
      const st = await makeStore();
      await st.create('/counter', v('0'));
      await Promise.all(
        Array.from({ length: 25 }, () => st.update('/counter', (cur) => v(String(Number(s(cur.value)) + 1)))),
      );
      expect(s((await st.get('/counter')).kv?.value)).toBe('25');
      await st.close();
    });

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

    it('watches from a revision: every later event under the prefix, in order, with prev values', async () => {
      const st = await makeStore();
      const start = await st.currentRevision();
      await st.create('/w/a', v('1'));
      await st.create('/other/x', v('x'));
      await st.update('/w/a', () => v('2'));
      const pending = collect(st, '/w/', start, 4);
      await st.create('/w/b', v('3'));
      await st.delete('/w/a');
      const events = await pending;
      expect(events.map((e) => [e.type, e.kv.key, s(e.kv.value)])).toEqual([
        ['put', '/w/a', '1'],
        ['put', '/w/a', '2'],
        ['put', '/w/b', '3'],
        ['delete', '/w/a', '2'],
      ]);
      expect(s(events[1]!.prevKv?.value)).toBe('1');
      const revs = events.map((e) => e.revision);
      expect([...revs].sort((a, b) => a - b)).toEqual(revs);
      expect(events[3]!.kv.modRevision).toBe(events[3]!.revision);
      await st.close();
    });

    it('compaction: reads and watches below the compacted revision fail with Compacted; newer ones work', async () => {
      const st = await makeStore();
      const first = await st.create('/c/a', v('1'));
      await st.update('/c/a', () => v('2'));
      const mid = await st.currentRevision();
      await st.update('/c/a', () => v('3'));
      await st.compact(mid);
      expect(await st.compactedRevision()).toBe(mid);
      await expect(st.get('/c/a', { atRevision: first.modRevision })).rejects.toSatisfy((e) =>
        isStoreError(e, 'Compacted'),
      );
      let err: unknown;
      try {
        for await (const _ of st.watch('/c/', { fromRevision: first.modRevision })) break;
      } catch (e) {
        err = e;
      }
      expect(isStoreError(err, 'Compacted')).toBe(true);
      expect(s((await st.get('/c/a', { atRevision: mid })).kv?.value)).toBe('2');
      const events = await collect(st, '/c/', mid, 1);
      expect(s(events[0]!.kv.value)).toBe('3');
      await st.close();
    });

    it('a deleted name can be created again with a new createRevision', async () => {
      const st = await makeStore();
      const a = await st.create('/k', v('1'));
      await st.delete('/k');
      const b = await st.create('/k', v('2'));
      expect(b.createRevision).toBeGreaterThan(a.createRevision);
      await st.close();
    });
  });
}
