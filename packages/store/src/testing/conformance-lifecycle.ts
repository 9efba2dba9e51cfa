import { expect, it } from 'vitest';
import { isStoreError } from '../errors.js';
import { type ConformanceSuite, collect, rejection, same, v, watchError } from './conformance-helpers.js';

/** Close: open watches end; a durable store reopens with everything it held, a non-durable one refuses writes. */
export function conformanceLifecycle(suite: ConformanceSuite): void {
  const { makeStore, opts } = suite;
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
}
