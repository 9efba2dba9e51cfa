import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import type { StoreEvent } from './store.js';
import { followStoreWatch, StoreWatcher } from './store-watcher.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('followStoreWatch', () => {
  it('hands every event of a burst over in revision order, then closes the watch when apply answers false', async () => {
    const store = createMemoryStore();
    const seen: number[] = [];
    // A backlog of 5 (queued before the first read), then 5 more written while following.
    for (let i = 0; i < 5; i++) await store.create(`/a/${i}`, bytes(`${i}`));
    const followed = followStoreWatch(store.watch('/', { fromRevision: 0 }), (ev) => {
      seen.push(ev.revision);
      return seen.length < 10;
    });
    for (let i = 5; i < 12; i++) await store.create(`/a/${i}`, bytes(`${i}`));
    await followed;
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await store.close();
  });

  it('closes the watch and rejects when apply throws; reads any other iterable one event at a time', async () => {
    const store = createMemoryStore();
    await store.create('/a/x', bytes('x'));
    await store.create('/a/y', bytes('y'));
    await expect(
      followStoreWatch(store.watch('/', { fromRevision: 0 }), () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    let closed = false;
    const plain: AsyncIterable<StoreEvent> = {
      [Symbol.asyncIterator]: () => {
        let n = 0;
        return {
          next: async () =>
            ++n > 3
              ? { value: undefined, done: true }
              : {
                  value: {
                    type: 'put',
                    kv: { key: `/k${n}`, value: bytes(''), createRevision: n, modRevision: n },
                    revision: n,
                  },
                  done: false,
                },
          return: async () => {
            closed = true;
            return { value: undefined, done: true };
          },
        };
      },
    };
    const revs: number[] = [];
    await followStoreWatch(plain, (ev) => {
      revs.push(ev.revision);
      return undefined;
    });
    expect(revs).toEqual([1, 2, 3]);
    expect(closed).toBe(false);
    await followStoreWatch(plain, () => false);
    expect(closed).toBe(true);
    // A promise apply answers is awaited before the next event, inside a drained burst too.
    for (let i = 0; i < 4; i++) await store.create(`/b/${i}`, bytes(''));
    const order: string[] = [];
    await followStoreWatch(store.watch('/b/', { fromRevision: 0 }), (ev) => {
      order.push(`apply ${ev.revision}`);
      if (ev.revision === 6) return false;
      return new Promise<void>((r) => setImmediate(() => r(void order.push(`yield ${ev.revision}`))));
    });
    expect(order).toEqual(['apply 3', 'yield 3', 'apply 4', 'yield 4', 'apply 5', 'yield 5', 'apply 6']);
    await store.close();
  });

  it('delivers the events a StoreWatcher queued before it failed, then rejects with its error (next() and followStoreWatch alike)', async () => {
    const ev = (n: number): StoreEvent => ({
      type: 'put',
      kv: { key: `/k${n}`, value: bytes(''), createRevision: n, modRevision: n },
      revision: n,
    });
    let unregistered = 0;
    const w = new StoreWatcher('/', [ev(1)], () => unregistered++, undefined);
    const seen: number[] = [];
    const followed = followStoreWatch({ [Symbol.asyncIterator]: () => w }, (e) => {
      seen.push(e.revision);
      return undefined;
    });
    w.push(ev(2));
    expect(seen).toEqual([]); // handed over from a microtask, never inside push
    await new Promise((r) => setImmediate(r));
    w.push(ev(3));
    w.fail(new Error('compacted under the watch'));
    w.push(ev(4)); // after the end: dropped
    await expect(followed).rejects.toThrow('compacted under the watch');
    expect(seen).toEqual([1, 2, 3]);
    expect(unregistered).toBe(1);
    const v = new StoreWatcher('/', [ev(1)], () => {}, undefined);
    v.fail(new Error('gone'));
    expect((await v.next()).value?.revision).toBe(1);
    await expect(v.next()).rejects.toThrow('gone');
  });
});
