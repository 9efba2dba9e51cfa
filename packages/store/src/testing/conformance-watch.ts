import { expect, it } from 'vitest';
import { type ConformanceSuite, collect, s, same, v } from './conformance-helpers.js';

/** Watches: later events under the prefix in revision order with previous values, from any revision, ending when aborted. */
export function conformanceWatch(suite: ConformanceSuite): void {
  const { makeStore } = suite;
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
}
