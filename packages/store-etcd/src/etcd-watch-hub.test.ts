import { isStoreError, StoreError, type StoreEvent, StoreWatcher } from '@orchard/store';
import { describe, expect, it } from 'vitest';
import { EtcdWatchHub } from './etcd-watch-hub.js';

/** A source the test feeds by hand: every call is recorded with its start revision and signal. */
function fakeSource() {
  const calls: { from: number; signal: AbortSignal; push(ev: StoreEvent): void; fail(e: unknown): void }[] =
    [];
  const source = (from: number, signal: AbortSignal): AsyncIterable<StoreEvent> => {
    const queue: StoreEvent[] = [];
    let failure: unknown;
    let wake: (() => void) | undefined;
    const poke = () => {
      wake?.();
      wake = undefined;
    };
    signal.addEventListener('abort', poke);
    calls.push({
      from,
      signal,
      push: (ev) => {
        queue.push(ev);
        poke();
      },
      fail: (e) => {
        failure = e;
        poke();
      },
    });
    return (async function* () {
      for (;;) {
        if (signal.aborted) return;
        const ev = queue.shift();
        if (ev) yield ev;
        else if (failure !== undefined) throw failure;
        else await new Promise<void>((r) => (wake = r));
      }
    })();
  };
  return { source, calls };
}

const put = (key: string, revision: number): StoreEvent => ({
  type: 'put',
  kv: { key, value: new Uint8Array([1]), createRevision: revision, modRevision: revision },
  revision,
});

/** `hub.subscribe` into a new watcher that ends with `signal`: the watcher, or undefined when not joined. */
function join(
  hub: EtcdWatchHub,
  prefix: string,
  from: number,
  signal: AbortSignal,
): StoreWatcher | undefined {
  const watcher = new StoreWatcher(prefix, [], () => {}, signal);
  return hub.subscribe(prefix, from, signal, watcher) ? watcher : undefined;
}

/** The next `n` events of `it`, as `key@revision`. */
async function take(it: AsyncIterator<StoreEvent>, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await it.next();
    if (r.done) break;
    out.push(`${r.value.kv.key}@${r.value.revision}`);
  }
  return out;
}

describe('EtcdWatchHub', () => {
  it('serves every watcher from one source, each only its prefix, in revision order', async () => {
    const { source, calls } = fakeSource();
    const hub = new EtcdWatchHub(source);
    const ac = new AbortController();
    const a = join(hub, '/a/', 10, ac.signal)!;
    const all = join(hub, '/', 10, ac.signal)!;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.from).toBe(10);
    for (const [k, r] of [
      ['/a/1', 11],
      ['/b/1', 12],
      ['/a/2', 13],
    ] as const)
      calls[0]!.push(put(k, r));
    expect(await take(a, 2)).toEqual(['/a/1@11', '/a/2@13']);
    expect(await take(all, 3)).toEqual(['/a/1@11', '/b/1@12', '/a/2@13']);
    ac.abort();
    expect((await a.next()).done).toBe(true);
  });

  it('a watcher just behind the hub gets the kept events; a little further behind, the stream restarts without repeats; far behind, its own stream', async () => {
    const { source, calls } = fakeSource();
    const hub = new EtcdWatchHub(source);
    const ac = new AbortController();
    const first = join(hub, '/', 0, ac.signal)!;
    for (let r = 1; r <= 2600; r++) calls[0]!.push(put(`/k/${r}`, r));
    expect(await take(first, 2598)).toHaveLength(2598);
    const late = join(hub, '/', 2595, ac.signal)!;
    expect(await take(late, 5)).toEqual([
      '/k/2596@2596',
      '/k/2597@2597',
      '/k/2598@2598',
      '/k/2599@2599',
      '/k/2600@2600',
    ]);
    expect(calls).toHaveLength(1);
    // 512 events are kept; more than 2,000 revisions behind the hub: a stream of its own.
    expect(join(hub, '/', 10, ac.signal)).toBeUndefined();
    expect(calls).toHaveLength(1);
    // 1,000 behind: the hub's stream restarts from there.
    const behind = join(hub, '/', 1000, ac.signal)!;
    expect(calls.map((c) => c.from)).toEqual([0, 1000]);
    expect(calls[0]!.signal.aborted).toBe(true);
    for (let r = 1001; r <= 2601; r++) calls[1]!.push(put(`/k/${r}`, r));
    const got = await take(behind, 1601);
    expect([got[0], got.at(-1), got.length]).toEqual(['/k/1001@1001', '/k/2601@2601', 1601]);
    // The first watcher had been given 2,600 (two still queued): it goes on with 2,601 only.
    expect(await take(first, 3)).toEqual(['/k/2599@2599', '/k/2600@2600', '/k/2601@2601']);
    ac.abort();
  });

  it("a compaction ending the hub's watch ends each watcher's with Compacted from its own revision", async () => {
    const { source, calls } = fakeSource();
    const hub = new EtcdWatchHub(source);
    const ac = new AbortController();
    const a = join(hub, '/a/', 5, ac.signal)!;
    const b = join(hub, '/b/', 5, ac.signal)!;
    calls[0]!.push(put('/a/x', 6));
    expect(await take(a, 1)).toEqual(['/a/x@6']);
    calls[0]!.fail(new StoreError('Compacted', 'required revision 6 has been compacted', undefined, 9));
    for (const [it, last] of [
      [a, 6],
      [b, 5],
    ] as const) {
      const e = await it.next().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isStoreError(e, 'Compacted') && e.revision).toBe(9);
      expect((e as Error).message).toBe(`required revision ${last} has been compacted`);
    }
    // The next watcher starts a new stream.
    join(hub, '/', 9, ac.signal);
    expect(calls.map((c) => c.from)).toEqual([5, 9]);
    ac.abort();
  });

  it('the last watcher leaving stops the stream; one leaving early does not end the others', async () => {
    const { source, calls } = fakeSource();
    const hub = new EtcdWatchHub(source);
    const one = new AbortController();
    const two = new AbortController();
    const a = join(hub, '/', 1, one.signal)!;
    const b = join(hub, '/', 1, two.signal)!;
    calls[0]!.push(put('/k', 2));
    expect(await take(a, 1)).toEqual(['/k@2']);
    one.abort();
    expect((await a.next()).done).toBe(true);
    expect(calls[0]!.signal.aborted).toBe(false);
    expect(await take(b, 1)).toEqual(['/k@2']);
    two.abort();
    expect((await b.next()).done).toBe(true);
    expect(calls[0]!.signal.aborted).toBe(true);
  });
});
