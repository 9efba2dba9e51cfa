import { describe, expect, it } from 'vitest';
import { isStoreError } from '../errors.js';
import type { KeyValue, Store, StoreEvent } from '../store.js';

/**
 * What the suite may assume of a backend beyond the Store interface. Each capability is stated, never
 * skipped silently: a backend without durability says so, and the suite then checks only what a
 * non-durable store promises at close.
 */
export interface StoreConformanceOptions {
  /**
   * `{ durable: true, reopen }`: `reopen(closed)` opens a new Store on the data the closed store held
   * (same file, same etcd prefix); the suite checks that everything survives. `{ durable: false }`:
   * data lives only as long as the Store object (the memory backend); the suite checks that a closed
   * store refuses writes instead.
   */
  durability: { durable: true; reopen(closed: Store): Promise<Store> } | { durable: false };
  /** Keys written by the large-keyspace test. Default 100_000. */
  manyKeys?: number;
  /** Timeout in ms of each heavy test (large keyspace, large values, concurrency). Default 60_000. */
  heavyTimeoutMs?: number;
}

/** Defaults of the conformance suite: key count of the heavy cases and their timeout. */
export const defaultStoreConformanceOptions: Readonly<Required<Omit<StoreConformanceOptions, 'durability'>>> =
  Object.freeze({ manyKeys: 100_000, heavyTimeoutMs: 60_000 });

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The suite every Store backend must pass. Call it from a test file with a factory that returns a
 * fresh, empty store, and the backend's capabilities:
 * `runStoreConformance('memory', () => createMemoryStore(), { durability: { durable: false } })`.
 */
export function runStoreConformance(
  name: string,
  makeStore: () => Store | Promise<Store>,
  options: StoreConformanceOptions,
): void {
  const opts = { ...defaultStoreConformanceOptions, ...options };
  const heavy = opts.heavyTimeoutMs;
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
    if (count === 0) return out;
    for await (const e of store.watch(prefix, { fromRevision, signal: ac.signal })) {
      out.push(e);
      if (out.length >= count) break;
    }
    ac.abort();
    return out;
  }

  /** The rejection of a promise (fails the test if it resolves). */
  async function rejection(p: Promise<unknown>): Promise<unknown> {
    try {
      await p;
    } catch (e) {
      return e;
    }
    throw new Error('expected a rejection');
  }

  /** The error a watch fails with when it starts, if any (a backend may throw at iteration or at the first next()). */
  async function watchError(store: Store, prefix: string, fromRevision: number): Promise<unknown> {
    const ac = new AbortController();
    try {
      const it = store.watch(prefix, { fromRevision, signal: ac.signal })[Symbol.asyncIterator]();
      const first = it.next();
      ac.abort();
      await first;
      await it.return?.();
    } catch (e) {
      return e;
    }
    return undefined;
  }

  /** Asserts two key-values are the same version of the same key. */
  function same(a: KeyValue | undefined, b: KeyValue | undefined): void {
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect([a!.key, a!.createRevision, a!.modRevision]).toEqual([b!.key, b!.createRevision, b!.modRevision]);
    expect(bytesEqual(a!.value, b!.value)).toBe(true);
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

    it('watch from any revision: exactly the later events under the prefix, in revision order', async () => {
      const st = await makeStore();
      const start = await st.currentRevision();
      const ops: Array<() => Promise<unknown>> = [
        () => st.create('/o/a', v('a1')),
        () => st.create('/o/b', v('b1')),
        () => st.create('/x/elsewhere', v('x')),
        () => st.update('/o/a', () => v('a2')),
        () => st.delete('/o/b'),
        () => st.create('/o/b', v('b2')),
        () => st.create('/o/c', v('c1')),
        () => st.update('/o/c', () => v('c2')),
        () => st.delete('/o/a'),
      ];
      for (const op of ops) await op();
      const end = await st.currentRevision();
      const all = await collect(st, '/o/', start, 8);
      expect(all.map((e) => `${e.type} ${e.kv.key} ${s(e.kv.value)}`)).toEqual([
        'put /o/a a1',
        'put /o/b b1',
        'put /o/a a2',
        'delete /o/b b1',
        'put /o/b b2',
        'put /o/c c1',
        'put /o/c c2',
        'delete /o/a a2',
      ]);
      for (let i = 1; i < all.length; i++) expect(all[i]!.revision).toBeGreaterThan(all[i - 1]!.revision);
      expect(all[all.length - 1]!.revision).toBe(end);
      for (let r = start; r <= end; r++) {
        const expected = all.filter((e) => e.revision > r);
        const got = await collect(st, '/o/', r, expected.length);
        expect(got.map((e) => e.revision)).toEqual(expected.map((e) => e.revision));
        expect(got.map((e) => e.type)).toEqual(expected.map((e) => e.type));
      }
      // A watch from the current revision sees only what is written afterwards.
      const live = collect(st, '/o/', end, 1);
      await st.create('/o/d', v('d1'));
      const [ev] = await live;
      expect([ev!.type, ev!.kv.key, ev!.revision]).toEqual(['put', '/o/d', end + 1]);
      await st.close();
    });

    it('a put event carries the previous value; a delete event the deleted value at the deletion revision', async () => {
      const st = await makeStore();
      const start = await st.currentRevision();
      const c = await st.create('/e/k', v('1'));
      const u = await st.update('/e/k', () => v('2'));
      const d = await st.delete('/e/k');
      const [put1, put2, del] = await collect(st, '/e/', start, 3);
      expect(put1!.prevKv).toBeUndefined();
      same(put1!.kv, c);
      same(put2!.prevKv, c);
      same(put2!.kv, u);
      expect(del!.type).toBe('delete');
      expect(d.modRevision).toBe(del!.revision);
      expect(del!.kv.modRevision).toBe(del!.revision);
      expect(s(del!.kv.value)).toBe('2');
      same(del!.prevKv, u);
      await st.close();
    });

    it('a watch ends when its signal aborts', async () => {
      const st = await makeStore();
      const ac = new AbortController();
      const it = st
        .watch('/s/', { fromRevision: await st.currentRevision(), signal: ac.signal })
        [Symbol.asyncIterator]();
      const next = it.next();
      ac.abort();
      expect((await next).done).toBe(true);
      await st.close();
    });

    it('compaction errors: Compacted carries the compacted revision; compacting ahead of current is FutureRevision; compacting backwards is a no-op', async () => {
      const st = await makeStore();
      const a = await st.create('/cc/a', v('1'));
      await st.create('/cc/b', v('1'));
      await st.update('/cc/a', () => v('2'));
      const mid = await st.currentRevision();
      await st.delete('/cc/b');
      await st.compact(mid);
      const getErr = await rejection(st.get('/cc/a', { atRevision: a.modRevision }));
      expect(isStoreError(getErr, 'Compacted')).toBe(true);
      expect((getErr as { revision?: number }).revision).toBe(mid);
      const listErr = await rejection(st.list('/cc/', { atRevision: mid - 1 }));
      expect(isStoreError(listErr, 'Compacted')).toBe(true);
      expect((listErr as { revision?: number }).revision).toBe(mid);
      const wErr = await watchError(st, '/cc/', mid - 1);
      expect(isStoreError(wErr, 'Compacted')).toBe(true);
      // At the compacted revision itself the snapshot is still readable.
      expect((await st.list('/cc/', { atRevision: mid })).kvs.map((kv) => kv.key)).toEqual([
        '/cc/a',
        '/cc/b',
      ]);
      expect((await st.list('/cc/')).kvs.map((kv) => kv.key)).toEqual(['/cc/a']);
      const cur = await st.currentRevision();
      expect(isStoreError(await rejection(st.compact(cur + 5)), 'FutureRevision')).toBe(true);
      await st.compact(mid - 1);
      expect(await st.compactedRevision()).toBe(mid);
      // Compacting everything keeps the live keys.
      await st.compact(cur);
      expect(await st.compactedRevision()).toBe(cur);
      expect((await st.list('/cc/')).kvs.map((kv) => s(kv.value))).toEqual(['2']);
      const next = await st.update('/cc/a', () => v('3'));
      expect(next.modRevision).toBe(cur + 1);
      expect(next.createRevision).toBe(a.createRevision);
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

    it(
      'values up to 1.5 MiB are stored, updated, listed and watched intact',
      async () => {
        const st = await makeStore();
        const start = await st.currentRevision();
        const big = new Uint8Array(1.5 * 1024 * 1024);
        for (let i = 0; i < big.length; i++) big[i] = (i * 7 + (i >> 11)) & 0xff;
        const big2 = big.slice();
        big2[big2.length - 1] = 0xff ^ big[big.length - 1]!;
        await st.create('/big/1', big);
        expect(bytesEqual((await st.get('/big/1')).kv!.value, big)).toBe(true);
        await st.update('/big/1', () => big2);
        expect(bytesEqual((await st.list('/big/')).kvs[0]!.value, big2)).toBe(true);
        const [e1, e2] = await collect(st, '/big/', start, 2);
        expect(bytesEqual(e1!.kv.value, big)).toBe(true);
        expect(bytesEqual(e2!.kv.value, big2)).toBe(true);
        expect(bytesEqual(e2!.prevKv!.value, big)).toBe(true);
        await st.close();
      },
      heavy,
    );

    it(
      `${opts.manyKeys} keys: counted, paged in key order from one snapshot, prefix-scoped`,
      async () => {
        const st = await makeStore();
        const n = opts.manyKeys;
        const key = (i: number) => `/many/${String(i).padStart(7, '0')}`;
        const batch = 500;
        for (let i = 0; i < n; i += batch) {
          const writes: Promise<unknown>[] = [];
          for (let j = i; j < Math.min(n, i + batch); j++) writes.push(st.create(key(j), v(String(j))));
          await Promise.all(writes);
        }
        await st.create('/manz', v('after'));
        await st.create('/man', v('before'));
        const first = await st.list('/many/', { limit: 1000 });
        expect(first.kvs.length).toBe(1000);
        expect(first.remaining).toBe(n - 1000);
        expect(first.kvs[0]!.key).toBe(key(0));
        // Writes after the snapshot do not show in its later pages.
        await st.create('/many/zzz-later', v('late'));
        await st.delete(key(n - 1));
        let seen = first.kvs.length;
        let last = first.kvs[first.kvs.length - 1]!.key;
        let remaining = first.remaining;
        let pages = 1;
        while (remaining > 0) {
          const page = await st.list('/many/', {
            limit: 5000,
            startKey: `${last}\u0000`,
            atRevision: first.revision,
          });
          expect(page.revision).toBe(first.revision);
          expect(page.kvs[0]!.key > last).toBe(true);
          seen += page.kvs.length;
          last = page.kvs[page.kvs.length - 1]!.key;
          remaining = page.remaining;
          pages++;
          expect(pages).toBeLessThan(n);
        }
        expect(seen).toBe(n);
        expect(last).toBe(key(n - 1));
        const now = await st.list('/many/', { limit: 1 });
        expect(now.remaining).toBe(n - 1);
        await st.close();
      },
      heavy,
    );

    it(
      'concurrent writers: distinct keys get distinct revisions, every event is watched once in order, one CAS winner per revision',
      async () => {
        const st = await makeStore();
        const start = await st.currentRevision();
        const writers = 8;
        const perWriter = 50;
        const results = await Promise.all(
          Array.from({ length: writers }, async (_, w) => {
            const out: KeyValue[] = [];
            for (let i = 0; i < perWriter; i++) {
              out.push(await st.create(`/cw/${w}/${i}`, v(`${w}-${i}`)));
              if (i % 5 === 4) out.push(await st.update(`/cw/${w}/${i}`, () => v(`${w}-${i}-u`)));
            }
            return out;
          }),
        );
        const revs = results.flat().map((kv) => kv.modRevision);
        expect(new Set(revs).size).toBe(revs.length);
        const events = await collect(st, '/cw/', start, revs.length);
        expect(events.map((e) => e.revision)).toEqual([...revs].sort((a, b) => a - b));
        expect(await st.currentRevision()).toBe(Math.max(...revs));

        // Racing CAS updates from one read: exactly one wins, the others conflict.
        const base = await st.create('/cas', v('0'));
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            st.update('/cas', () => v(String(i + 1)), { expectedRevision: base.modRevision }),
          ),
        );
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        expect(won.length).toBe(1);
        for (const o of outcomes)
          if (o.status === 'rejected') expect(isStoreError(o.reason, 'Conflict')).toBe(true);
        // Racing creates of one key: exactly one wins.
        const creates = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => st.create('/once', v(String(i)))),
        );
        expect(creates.filter((o) => o.status === 'fulfilled').length).toBe(1);
        for (const o of creates)
          if (o.status === 'rejected') expect(isStoreError(o.reason, 'AlreadyExists')).toBe(true);
        // Racing deletes of one key: exactly one wins.
        const deletes = await Promise.allSettled(Array.from({ length: 10 }, () => st.delete('/once')));
        expect(deletes.filter((o) => o.status === 'fulfilled').length).toBe(1);
        for (const o of deletes)
          if (o.status === 'rejected') expect(isStoreError(o.reason, 'NotFound')).toBe(true);
        await st.close();
      },
      heavy,
    );

    it('close ends open watches', async () => {
      const st = await makeStore();
      const it = st.watch('/', { fromRevision: await st.currentRevision() })[Symbol.asyncIterator]();
      const next = it.next();
      await st.close();
      expect((await next).done).toBe(true);
    });

    if (opts.durability.durable) {
      const { reopen } = opts.durability;
      it('close and reopen keeps every key, revision, compaction point and the watchable history', async () => {
        const st = await makeStore();
        const start = await st.currentRevision();
        const a = await st.create('/r/a', v('a1'));
        await st.update('/r/a', () => v('a2'));
        const b = await st.create('/r/b', new Uint8Array([0xff, 0x00, 0xfe]));
        await st.create('/r/gone', v('g'));
        await st.compact(a.modRevision);
        await st.delete('/r/gone');
        const rev = await st.currentRevision();
        const compacted = await st.compactedRevision();
        const before = await st.list('/r/');
        const history = await collect(st, '/r/', a.modRevision, 4);
        await st.close();

        const again = await reopen(st);
        expect(await again.currentRevision()).toBe(rev);
        expect(await again.compactedRevision()).toBe(compacted);
        const after = await again.list('/r/');
        expect(after.revision).toBe(rev);
        expect(after.kvs.length).toBe(before.kvs.length);
        for (const [i, kv] of before.kvs.entries()) same(after.kvs[i], kv);
        same((await again.get('/r/b')).kv, b);
        const replay = await collect(again, '/r/', a.modRevision, 4);
        expect(replay.map((e) => [e.type, e.kv.key, e.revision])).toEqual(
          history.map((e) => [e.type, e.kv.key, e.revision]),
        );
        expect(isStoreError(await watchError(again, '/r/', start), 'Compacted')).toBe(true);
        expect(isStoreError(await rejection(again.create('/r/a', v('x'))), 'AlreadyExists')).toBe(true);
        const next = await again.update('/r/a', () => v('a3'));
        expect(next.modRevision).toBe(rev + 1);
        expect(next.createRevision).toBe(a.createRevision);
        const c = await again.create('/r/gone', v('g2'));
        expect(c.createRevision).toBe(rev + 2);
        await again.close();
      });
    } else {
      it('a non-durable store refuses writes once closed', async () => {
        const st = await makeStore();
        await st.close();
        expect(isStoreError(await rejection(st.create('/closed', v('x'))), 'Unavailable')).toBe(true);
      });
    }
  });
}
