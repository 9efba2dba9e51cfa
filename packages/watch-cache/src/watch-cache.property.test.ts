import type { ApiObject } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode } from './test-fixture.js';
import { createWatchCache } from './watch-cache.js';

/**
 * The store is the oracle: for random histories of creates, updates and deletes, every Exact read
 * the cache serves (whole or paged, with and without a predicate) equals the store's snapshot at that
 * revision, and a watch from any revision in the window (with the same predicate, so objects leaving
 * and entering the selection are DELETED/ADDED) replays onto that snapshot to the current state.
 */
const P = '/r/widgets/';
const enc = new TextEncoder();
const value = (name: string, n: number) =>
  enc.encode(JSON.stringify({ metadata: { name, labels: { even: String(n % 2 === 0) } }, n }));

type Op = { op: 'put' | 'delete'; key: number; n: number };
const opArb = fc.record({
  op: fc.constantFrom<'put' | 'delete'>('put', 'put', 'delete'),
  key: fc.nat(7),
  n: fc.nat(100),
});

const view = (items: ApiObject[]) => items.map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`);

describe('watch cache against the store as oracle', () => {
  it('Exact reads and watches from any revision in the window agree with the store', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 40 }),
        fc.nat(5),
        fc.boolean(),
        async (ops: Op[], pageSize, filtered) => {
          const store = createMemoryStore();
          // One write before the cache starts, so the window does not begin at revision 0.
          await store.create(`${P}seed`, value('seed', 0));
          const cache = createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0 });
          await cache.ready();
          for (const o of ops) {
            const key = `${P}k${o.key}`;
            const exists = (await store.get(key)).kv !== undefined;
            if (o.op === 'put') {
              if (exists) await store.update(key, () => value(`k${o.key}`, o.n));
              else await store.create(key, value(`k${o.key}`, o.n));
            } else if (exists) await store.delete(key);
          }
          const current = await store.currentRevision();
          await cache.list({}); // consistent read: caught up
          const predicate = filtered ? (o: ApiObject) => o.metadata?.labels?.even === 'true' : undefined;
          for (let rev = cache.oldestRevision; rev <= current; rev++) {
            const want = (await store.list(P, { atRevision: rev })).kvs
              .map(decode)
              .filter((o) => !predicate || predicate(o));
            // Paged read at exactly rev.
            const got: ApiObject[] = [];
            let startKey: string | undefined;
            for (let guard = 0; guard < 100; guard++) {
              const page = await cache.list({
                revision: { kind: 'Exact', revision: rev },
                limit: pageSize,
                ...(startKey ? { startKey } : {}),
                ...(predicate ? { predicate } : {}),
              });
              expect(page.revision).toBe(rev);
              got.push(...page.items);
              startKey = page.nextKey;
              if (!startKey) break;
            }
            expect(view(got)).toEqual(view(want));
            // A watch from rev replays onto the snapshot at rev to give the current state.
            const w = await cache.watch({
              start: { kind: 'Exact', revision: rev },
              ...(predicate ? { predicate } : {}),
            });
            const state = new Map(
              (await store.list(P, { atRevision: rev })).kvs
                .map(decode)
                .filter((o) => !predicate || predicate(o))
                .map((o) => [o.metadata?.name as string, o.metadata?.resourceVersion as string]),
            );
            let last = rev;
            while (last < current) {
              const batch = await Promise.race([
                w.nextBatch(),
                new Promise<undefined>((r) => setTimeout(() => r(undefined), 50)),
              ]);
              if (!batch) break;
              for (const ev of batch) {
                if (ev.type === 'ERROR' || ev.type === 'BOOKMARK') continue;
                expect(ev.revision).toBeGreaterThan(last);
                last = ev.revision;
                const name = ev.object.metadata?.name as string;
                if (ev.type === 'DELETED') state.delete(name);
                else state.set(name, ev.object.metadata?.resourceVersion as string);
              }
            }
            w.close();
            const now = new Map(
              (await store.list(P)).kvs
                .map(decode)
                .filter((o) => !predicate || predicate(o))
                .map((o) => [o.metadata?.name as string, o.metadata?.resourceVersion as string]),
            );
            expect(state).toEqual(now);
          }
          await cache.stop();
          await store.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});
