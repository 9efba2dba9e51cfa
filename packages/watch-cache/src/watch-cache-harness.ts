/** The harness the watch-cache test files share (not exported by the package): a cache over a memory store. */
import type { ApiObject } from '@orchard/meta';
import { createMemoryStore, type Store } from '@orchard/store';
import { decode } from './test-fixture.js';
import { createWatchCache, type WatchCache } from './watch-cache.js';
import type { CacheWatcher, WatchCacheEvent } from './watcher.js';

const enc = new TextEncoder();
/** The key prefix of the cache under test. */
export const P = '/registry/widgets/';

/** The stored bytes of a Widget. */
export function value(name: string, labels: Record<string, string> = {}, data = ''): Uint8Array {
  return enc.encode(JSON.stringify({ kind: 'Widget', metadata: { name, labels }, data }));
}
/** The names of `items`, in order. */
export const names = (items: ApiObject[]) => items.map((o) => o.metadata?.name);

/** The store under the cache of the running test (set by {@link setup}). */
export let store: Store;
/** The cache of the running test (set by {@link setup}). */
export let cache: WatchCache;
let clock = 1_000_000;

/** Makes `s` the store of the running test (closed after it). */
export function useStore(s: Store): void {
  store = s;
}

/** Makes `c` the cache of the running test (stopped after it). */
export function useCache(c: WatchCache): void {
  cache = c;
}

/** Moves the injected clock on by `ms`. */
export function tick(ms: number): void {
  clock += ms;
}

/** A memory store and a cache over it with an injected clock (bookmarks off), ready. */
export async function setup(opts: Partial<Parameters<typeof createWatchCache>[1]> = {}) {
  store = createMemoryStore();
  clock = 1_000_000;
  cache = createWatchCache(store, {
    prefix: P,
    decode,
    now: () => clock,
    bookmarkIntervalMs: 0,
    tooLargeWaitMs: 30,
    ...opts,
  });
  await cache.ready();
}

/** Resolves after the cache has applied every write made so far. */
export async function settle(): Promise<void> {
  const rev = await store.currentRevision();
  for (let i = 0; i < 1000 && cache.revision < rev; i++) await new Promise((r) => setTimeout(r, 1));
}

/** The next `n` events of `w`. */
export async function take(w: CacheWatcher, n: number): Promise<WatchCacheEvent[]> {
  const out: WatchCacheEvent[] = [];
  if (n === 0) return out;
  for await (const ev of w) {
    out.push(ev);
    if (out.length >= n) break;
  }
  return out;
}
/** Each event as `TYPE:name` (`ERROR:code`). */
export const brief = (evs: WatchCacheEvent[]) =>
  evs.map((e) =>
    e.type === 'ERROR'
      ? `ERROR:${e.error.code}`
      : `${e.type}:${e.object.metadata?.name ?? e.object.metadata?.resourceVersion}`,
  );

/** Stops the cache and closes the store of the test that ran (an afterEach). */
export async function cleanup(): Promise<void> {
  await cache?.stop();
  await store?.close();
}
