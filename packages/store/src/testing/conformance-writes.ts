import { expect, it } from 'vitest';
import { isStoreError } from '../errors.js';
import { type ConformanceSuite, collect, s, v } from './conformance-helpers.js';

/** Writes: each gets the next global revision; create, compare-and-swap update and delete, aborting callbacks, serialized concurrent updates, re-creating a deleted name. */
export function conformanceWrites(suite: ConformanceSuite): void {
  const { makeStore } = suite;
  it('gives every write the next global revision', async () => {
    const st = await makeStore();
    const r0 = await st.currentRevision();
    const a = await st.create('/a/1', v('x'));
    const b = await st.create('/b/1', v('y'));
    expect(a.modRevision).toBeGreaterThan(r0);
    expect(b.modRevision).toBeGreaterThan(a.modRevision);
    const u = await st.update('/a/1', () => v('x2'));
    expect(u.modRevision).toBeGreaterThan(b.modRevision);
    expect(u.createRevision).toBe(a.createRevision);
    expect(await st.currentRevision()).toBe(u.modRevision);
    await st.close();
  });

  it('createAll, where the backend has it: consecutive revisions in order, one put each, all or nothing', async () => {
    const st = await makeStore();
    expect(typeof st.createAll === 'function').toBe(suite.opts.createAll);
    if (!st.createAll) return st.close();
    await st.create('/ca/taken', v('t'));
    const r0 = await st.currentRevision();
    const kvs = await st.createAll([
      { key: '/ca/b', value: v('b') },
      { key: '/ca/a', value: v('a') },
    ]);
    expect(kvs.map((kv) => [kv.key, kv.modRevision - r0, kv.createRevision - r0, s(kv.value)])).toEqual([
      ['/ca/b', 1, 1, 'b'],
      ['/ca/a', 2, 2, 'a'],
    ]);
    const events = await collect(st, '/ca/', r0, 2);
    expect(events.map((e) => [e.type, e.kv.key, e.revision - r0, s(e.kv.value)])).toEqual([
      ['put', '/ca/b', 1, 'b'],
      ['put', '/ca/a', 2, 'a'],
    ]);
    for (const clash of ['/ca/taken', '/ca/new']) {
      const entries = [
        { key: '/ca/new', value: v('n') },
        { key: clash, value: v('x') },
      ];
      await expect(st.createAll(entries)).rejects.toSatisfy((e) => isStoreError(e, 'AlreadyExists'));
      expect(await st.currentRevision()).toBe(r0 + 2);
      expect((await st.get('/ca/new')).kv).toBeUndefined();
    }
    await st.close();
  });

  it('rejects a duplicate create with AlreadyExists and a missing key with NotFound', async () => {
    const st = await makeStore();
    await st.create('/k', v('1'));
    await expect(st.create('/k', v('2'))).rejects.toSatisfy((e) => isStoreError(e, 'AlreadyExists'));
    await expect(st.update('/missing', () => v('x'))).rejects.toSatisfy((e) => isStoreError(e, 'NotFound'));
    await expect(st.delete('/missing')).rejects.toSatisfy((e) => isStoreError(e, 'NotFound'));
    expect(s((await st.get('/k')).kv?.value)).toBe('1');
    await st.close();
  });

  it('compare-and-swap: update and delete with a stale expectedRevision conflict and change nothing', async () => {
    const st = await makeStore();
    const c = await st.create('/k', v('1'));
    await st.update('/k', () => v('2'));
    await expect(st.update('/k', () => v('3'), { expectedRevision: c.modRevision })).rejects.toSatisfy((e) =>
      isStoreError(e, 'Conflict'),
    );
    await expect(st.delete('/k', { expectedRevision: c.modRevision })).rejects.toSatisfy((e) =>
      isStoreError(e, 'Conflict'),
    );
    expect(s((await st.get('/k')).kv?.value)).toBe('2');
    await st.close();
  });

  it('an aborting tryUpdate or delete check leaves the value untouched', async () => {
    const st = await makeStore();
    await st.create('/k', v('1'));
    await expect(
      st.update('/k', () => {
        throw new Error('nope');
      }),
    ).rejects.toThrow('nope');
    await expect(
      st.delete('/k', {
        check: () => {
          throw new Error('precondition');
        },
      }),
    ).rejects.toThrow('precondition');
    expect(s((await st.get('/k')).kv?.value)).toBe('1');
    await st.close();
  });

  it('concurrent updates are serialized: none is lost', async () => {
    const st = await makeStore();
    await st.create('/counter', v('0'));
    await Promise.all(
      Array.from({ length: 25 }, () => st.update('/counter', (cur) => v(String(Number(s(cur.value)) + 1)))),
    );
    expect(s((await st.get('/counter')).kv?.value)).toBe('25');
    await st.close();
  });

  it('a deleted name can be created again with a new createRevision', async () => {
    const st = await makeStore();
    const a = await st.create('/k', v('1'));
    await st.delete('/k');
    const b = await st.create('/k', v('2'));
    expect(b.createRevision).toBeGreaterThan(a.createRevision);
    await st.close();
  });
}
