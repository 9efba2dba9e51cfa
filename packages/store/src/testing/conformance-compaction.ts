import { expect, it } from 'vitest';
import { isStoreError } from '../errors.js';
import { type ConformanceSuite, collect, rejection, s, v, watchError } from './conformance-helpers.js';

/** Compaction: what is readable and watchable below and above the compaction point, and the errors of compacting. */
export function conformanceCompaction(suite: ConformanceSuite): void {
  const { makeStore } = suite;
  it('compaction: reads and watches below the compacted revision fail with Compacted; newer ones work', async () => {
    const st = await makeStore();
    const first = await st.create('/c/a', v('1'));
    await st.update('/c/a', () => v('2'));
    const mid = await st.currentRevision();
    await st.update('/c/a', () => v('3'));
    await st.compact(mid);
    expect(await st.compactedRevision()).toBe(mid);
    await expect(st.get('/c/a', { atRevision: first.modRevision })).rejects.toSatisfy((e) =>
      isStoreError(e, 'Compacted'),
    );
    let err: unknown;
    try {
      for await (const _ of st.watch('/c/', { fromRevision: first.modRevision })) break;
    } catch (e) {
      err = e;
    }
    expect(isStoreError(err, 'Compacted')).toBe(true);
    expect(s((await st.get('/c/a', { atRevision: mid })).kv?.value)).toBe('2');
    const events = await collect(st, '/c/', mid, 1);
    expect(s(events[0]!.kv.value)).toBe('3');
    await st.close();
  });

  it('compaction errors: Compacted carries the compacted revision; compacting ahead of current is FutureRevision; compacting backwards is a no-op', async () => {
    const st = await makeStore();
    const a = await st.create('/cc/a', v('1'));
    await st.create('/cc/b', v('1'));
    await st.update('/cc/a', () => v('2'));
    const mid = await st.currentRevision();
    await st.delete('/cc/b');
    await st.compact(mid);
    const getErr = await rejection(st.get('/cc/a', { atRevision: a.modRevision }));
    expect(isStoreError(getErr, 'Compacted')).toBe(true);
    expect((getErr as { revision?: number }).revision).toBe(mid);
    const listErr = await rejection(st.list('/cc/', { atRevision: mid - 1 }));
    expect(isStoreError(listErr, 'Compacted')).toBe(true);
    expect((listErr as { revision?: number }).revision).toBe(mid);
    const wErr = await watchError(st, '/cc/', mid - 1);
    expect(isStoreError(wErr, 'Compacted')).toBe(true);
    // At the compacted revision itself the snapshot is still readable.
    expect((await st.list('/cc/', { atRevision: mid })).kvs.map((kv) => kv.key)).toEqual(['/cc/a', '/cc/b']);
    expect((await st.list('/cc/')).kvs.map((kv) => kv.key)).toEqual(['/cc/a']);
    const cur = await st.currentRevision();
    expect(isStoreError(await rejection(st.compact(cur + 5)), 'FutureRevision')).toBe(true);
    await st.compact(mid - 1);
    expect(await st.compactedRevision()).toBe(mid);
    // Compacting everything keeps the live keys.
    await st.compact(cur);
    expect(await st.compactedRevision()).toBe(cur);
    expect((await st.list('/cc/')).kvs.map((kv) => s(kv.value))).toEqual(['2']);
    const next = await st.update('/cc/a', () => v('3'));
    expect(next.modRevision).toBe(cur + 1);
    expect(next.createRevision).toBe(a.createRevision);
    await st.close();
  });
}
