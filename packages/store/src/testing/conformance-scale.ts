import { expect, it } from 'vitest';
import { isStoreError } from '../errors.js';
import type { KeyValue } from '../store.js';
import { bytesEqual, type ConformanceSuite, collect, v } from './conformance-helpers.js';

/** Scale: values up to 1.5 MiB, a large keyspace paged from one snapshot, concurrent writers and racing compare-and-swaps. */
export function conformanceScale(suite: ConformanceSuite): void {
  const { makeStore, opts } = suite;
  const heavy = opts.heavyTimeoutMs;
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
}
