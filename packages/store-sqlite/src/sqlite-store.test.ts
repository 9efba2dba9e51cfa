import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStoreError, type Store } from '@orchard/store';
import { runStoreConformance } from '@orchard/store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSqliteFile } from './integrity.js';
import { createSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'orchard-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const paths = new WeakMap<Store, string>();
function fresh(): Store {
  const path = join(dir, `db-${n++}.sqlite`);
  const store = createSqliteStore({ path });
  paths.set(store, path);
  return store;
}

runStoreConformance('sqlite', fresh, {
  durability: {
    durable: true,
    reopen: async (closed) => {
      const store = createSqliteStore({ path: paths.get(closed)! });
      paths.set(store, paths.get(closed)!);
      return store;
    },
  },
});

/** Opening `path` throws a Corrupt StoreError naming the file. */
function expectCorruptAtOpen(path: string): void {
  let err: unknown;
  try {
    createSqliteStore({ path });
  } catch (e) {
    err = e;
  }
  expect(isStoreError(err, 'Corrupt')).toBe(true);
  expect((err as Error).message).toContain(path);
}

describe('sqlite store specifics', () => {
  it('a file that is not a database is refused with Corrupt', () => {
    const path = join(dir, 'garbage.sqlite');
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    expectCorruptAtOpen(path);
  });

  it('a database damaged past its header is refused at open with Corrupt (quick_check)', async () => {
    const path = join(dir, 'damaged.sqlite');
    const st = createSqliteStore({ path });
    for (let i = 0; i < 2000; i++) await st.create(`/k/${i}`, new Uint8Array(300).fill(i % 251));
    await st.close();
    const bytes = readFileSync(path);
    bytes.fill(0xde, bytes.length / 2, bytes.length / 2 + 8192);
    writeFileSync(path, bytes);
    expectCorruptAtOpen(path);
    // Without the check it opens, and the damage surfaces on a read instead.
    const unchecked = createSqliteStore({ path, checkOnOpen: false });
    const readErr = await unchecked.list('/k/').catch((e: unknown) => e);
    expect(isStoreError(readErr, 'Corrupt')).toBe(true);
    expect((readErr as Error).message).toContain(`${path}: database disk image is malformed`);
    await unchecked.close();
  });

  it('a second store on a file another holds open is refused with Unavailable (one writer)', async () => {
    const first = fresh();
    await first.create('/k', new Uint8Array([1]));
    let err: unknown;
    try {
      const second = createSqliteStore({ path: paths.get(first)! });
      await second.get('/k');
      await second.close();
    } catch (e) {
      err = e;
    }
    expect(isStoreError(err, 'Unavailable')).toBe(true);
    await first.close();
  });

  it('auto-compaction keeps history bounded and survives reopen', async () => {
    const path = join(dir, 'auto.sqlite');
    const st = createSqliteStore({ path, autoCompactRetainRevisions: 10 });
    await st.create('/k', new Uint8Array([0]));
    for (let i = 0; i < 100; i++) await st.update('/k', () => new Uint8Array([i]));
    const compacted = await st.compactedRevision();
    expect(compacted).toBeGreaterThan(50);
    await st.close();
    const again = createSqliteStore({ path });
    expect(await again.compactedRevision()).toBe(compacted);
    expect((await again.get('/k')).kv?.value[0]).toBe(99);
    await again.close();
  });
});

describe('checkSqliteFile', () => {
  it('finds nothing wrong with a store the Store wrote, and reports a damaged or foreign file', async () => {
    const path = join(dir, 'checked.sqlite');
    const st = createSqliteStore({ path });
    for (let i = 0; i < 50; i++) await st.create(`/k/${i}`, new Uint8Array(300).fill(i));
    await st.close();
    expect(checkSqliteFile(path)).toEqual([]);
    const garbage = join(dir, 'checked-garbage.sqlite');
    writeFileSync(garbage, Buffer.alloc(8192, 0x5a));
    expect(checkSqliteFile(garbage).length).toBeGreaterThan(0);
    expect(checkSqliteFile(join(dir, 'missing.sqlite'))[0]).toContain('cannot open');
  });
});
