import { createMemoryStore } from '@orchard/store';
import { describe, expect, it } from 'vitest';
import { decode, encodeJson } from './test-fixture.js';
import { createWatchCache } from './watch-cache.js';
import type { WatchCacheEvent } from './watcher.js';

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
        (evs: WatchCacheEvent[]) => {
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
