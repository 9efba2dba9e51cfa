import type { ApiObject } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { describe, expect, it } from 'vitest';
import { decode, encodeJson } from './test-fixture.js';
import { createWatchCache } from './watch-cache.js';
import type { CachedChange, WatchCacheEvent } from './watcher.js';
import { type NewWatcher, WatcherSet } from './watcher-set.js';

const P = '/registry/widgets/';

describe('fan-out by key prefix', () => {
  it('a namespace watcher gets its namespace only; all-namespace and odd-prefix watchers get theirs, in order', async () => {
    const store = createMemoryStore();
    const cache = createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0 });
    await cache.ready();
    const start = { kind: 'Exact' as const, revision: cache.revision };
    const got = new Map<string, string[]>();
    const open = async (label: string, keyPrefix?: string) => {
      const w = await cache.watch({ start, ...(keyPrefix === undefined ? {} : { keyPrefix }) });
      const names: string[] = [];
      got.set(label, names);
      w.listen(
        (evs: readonly WatchCacheEvent[]) => {
          for (const e of evs) if (e.type !== 'ERROR') names.push(`${e.type}:${e.object.metadata?.name}`);
        },
        () => {},
      );
      return w;
    };
    const a = await open('a', `${P}a/`);
    await open('a-too', `${P}a/`);
    await open('b', `${P}b/`);
    await open('all');
    await open('odd', `${P}a/x`); // not a namespace prefix: offered everything, filtered by the watcher
    const put = (ns: string, name: string) =>
      store.create(`${P}${ns}/${name}`, encodeJson({ metadata: { name } }));
    await put('a', 'x1');
    await put('b', 'y1');
    await put('a', 'z1');
    await store.delete(`${P}a/x1`);
    const until = async (n: number) => {
      for (let i = 0; i < 1000 && (got.get('all')?.length ?? 0) < n; i++)
        await new Promise((r) => setTimeout(r, 5));
    };
    await until(4);
    a.close(); // a closed watcher leaves the index
    await put('a', 'x2');
    await until(5);
    expect(got.get('all')).toEqual(['ADDED:x1', 'ADDED:y1', 'ADDED:z1', 'DELETED:x1', 'ADDED:x2']);
    expect(got.get('a')).toEqual(['ADDED:x1', 'ADDED:z1', 'DELETED:x1']);
    expect(got.get('a-too')).toEqual(['ADDED:x1', 'ADDED:z1', 'DELETED:x1', 'ADDED:x2']);
    expect(got.get('b')).toEqual(['ADDED:y1']);
    expect(got.get('odd')).toEqual(['ADDED:x1', 'DELETED:x1', 'ADDED:x2']);
    expect(cache.stats().watchers).toBe(4);
    await cache.stop();
    await store.close();
  });
});

describe('push-mode fan-out', () => {
  const obj = (name: string, rv: number): ApiObject => ({ metadata: { name, resourceVersion: String(rv) } });
  const change = (rev: number, name = `o${rev}`): CachedChange => ({
    type: 'ADDED',
    key: `${P}ns/${name}`,
    object: obj(name, rev),
    prevObject: undefined,
    revision: rev,
    time: 0,
  });
  const watcher = (set: WatcherSet<ApiObject>, o: Partial<NewWatcher<ApiObject>> = {}) =>
    set.add({
      position: 0,
      predicate: undefined,
      keyPrefix: undefined,
      allowBookmarks: false,
      holding: false,
      ...o,
    });
  const revs = (evs: readonly WatchCacheEvent[]) => evs.map((e) => e.revision);

  it('unfiltered listeners share one array per burst; filtered, late or backlogged watchers get exactly theirs, in order', () => {
    const set = new WatcherSet<ApiObject>(100);
    const calls = new Map<string, (readonly WatchCacheEvent[])[]>();
    const listen = (label: string, w: ReturnType<typeof watcher>) => {
      calls.set(label, []);
      w.listen(
        (evs) => calls.get(label)?.push(evs),
        () => {},
      );
      return w;
    };
    const a = listen('a', watcher(set));
    listen('b', watcher(set));
    listen('filtered', watcher(set, { predicate: (o) => o.metadata?.name !== 'o2' }));
    listen('late', watcher(set, { position: 1 })); // started after change 1 was applied
    const backlogged = watcher(set);
    backlogged.offer(change(1)); // queued before it listens; its listener has not been woken yet
    listen('backlogged', backlogged);
    set.enqueue(change(1));
    set.enqueue(change(2));
    set.flush();
    const [ca, cb] = [calls.get('a'), calls.get('b')];
    expect(ca).toHaveLength(1);
    expect(cb?.[0]).toBe(ca?.[0]); // the same array: nothing allocated per watcher
    expect(revs(ca?.[0] ?? [])).toEqual([1, 2]);
    expect(a.position).toBe(2);
    expect(calls.get('filtered')?.map(revs)).toEqual([[1]]);
    expect(calls.get('late')?.map(revs)).toEqual([[2]]);
    expect(calls.get('backlogged')?.flatMap(revs)).toEqual([1, 2]);
    set.enqueue(change(3));
    set.flush();
    expect(calls.get('b')?.map(revs)).toEqual([[1, 2], [3]]);
    expect(calls.get('filtered')?.map(revs)).toEqual([[1], [3]]);
  });

  it('namespace watchers share the array of a one-change turn; in a longer turn they get only their namespace', () => {
    const set = new WatcherSet<ApiObject>(100);
    const got = new Map<string, (readonly WatchCacheEvent[])[]>();
    for (const [label, keyPrefix] of [
      ['all', undefined],
      ['ns', `${P}ns/`],
      ['ns-too', `${P}ns/`],
      ['other', `${P}other/`],
    ] as const) {
      const calls: (readonly WatchCacheEvent[])[] = [];
      got.set(label, calls);
      watcher(set, { keyPrefix }).listen(
        (evs) => calls.push(evs),
        () => {},
      );
    }
    set.enqueue(change(1));
    set.flush();
    expect(got.get('ns')?.[0]).toBe(got.get('all')?.[0]);
    expect(got.get('ns-too')?.[0]).toBe(got.get('all')?.[0]);
    expect(got.get('other')).toEqual([]);
    set.enqueue({ ...change(2), key: `${P}other/x` });
    set.enqueue(change(3));
    set.flush();
    expect(got.get('ns')?.map(revs)).toEqual([[1], [3]]);
    expect(got.get('other')?.map(revs)).toEqual([[2]]);
    expect(got.get('all')?.map(revs)).toEqual([[1], [2, 3]]);
  });

  it('a listener that closes its watch mid-fan-out is told once; the watchers after it still get the burst', () => {
    const set = new WatcherSet<ApiObject>(100);
    let ends = 0;
    let laterGot: number[] = [];
    const first = watcher(set);
    first.listen(
      () => first.close(),
      () => ends++,
    );
    const later = watcher(set);
    later.listen(
      (evs) => {
        laterGot = [...laterGot, ...revs(evs)];
      },
      () => {},
    );
    set.enqueue(change(1));
    set.flush();
    expect(ends).toBe(1);
    expect(laterGot).toEqual([1]);
    expect(set.size).toBe(1);
    set.enqueue(change(2));
    set.flush();
    expect(ends).toBe(1);
    expect(laterGot).toEqual([1, 2]);
  });
});
