import { isStoreError, StoreError, type StoreEvent } from '@orchard/store';
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
    const a = hub.subscribe('/a/', 10, ac.signal)!;
    const all = hub.subscribe('/', 10, ac.signal)!;
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

  it('a watcher just behind the hub gets the kept events after its revision; one far behind gets its own stream', async () => {
    const { source, calls } = fakeSource();
    const hub = new EtcdWatchHub(source);
    const ac = new AbortController();
    const first = hub.subscribe('/', 0, ac.signal)!;
    for (let r = 1; r <= 600; r++) calls[0]!.push(put(`/k/${r}`, r));
    expect(await take(first, 600)).toHaveLength(600);
    const late = hub.subscribe('/', 595, ac.signal)!;
    expect(await take(late, 5)).toEqual([
      '/k/596@596',
      '/k/597@597',
      '/k/598@598',
      '/k/599@599',
      '/k/600@600',
    ]);
    // 512 events are kept: revision 10's successors are gone.
    expect(hub.subscribe('/', 10, ac.signal)).toBeUndefined();
    expect(calls).toHaveLength(1);
    ac.abort();
  });

  it('restarts from an older revision while it has delivered nothing, without repeating events to the first watcher', async () => {
    const { source, calls } = fakeSource();
    const hub = new EtcdWatchHub(source);
    const ac = new AbortController();
    const newer = hub.subscribe('/', 20, ac.signal)!;
    const older = hub.subscribe('/', 15, ac.signal)!;
    expect(calls.map((c) => c.from)).toEqual([20, 15]);
    expect(calls[0]!.signal.aborted).toBe(true);
    for (let r = 16; r <= 21; r++) calls[1]!.push(put(`/k/${r}`, r));
    expect(await take(older, 6)).toHaveLength(6);
    expect(await take(newer, 1)).toEqual(['/k/21@21']);
    ac.abort();
  });

  it("a compaction ending the hub's watch ends each watcher's with Compacted from its own revision", async () => {
    const { source, calls } = fakeSource();
    const hub = new EtcdWatchHub(source);
    const ac = new AbortController();
    const a = hub.subscribe('/a/', 5, ac.signal)!;
    const b = hub.subscribe('/b/', 5, ac.signal)!;
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
    hub.subscribe('/', 9, ac.signal);
    expect(calls.map((c) => c.from)).toEqual([5, 9]);
    ac.abort();
  });

  it('the last watcher leaving stops the stream; one leaving early does not end the others', async () => {
    const { source, calls } = fakeSource();
    const hub = new EtcdWatchHub(source);
    const one = new AbortController();
    const two = new AbortController();
    const a = hub.subscribe('/', 1, one.signal)!;
    const b = hub.subscribe('/', 1, two.signal)!;
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
