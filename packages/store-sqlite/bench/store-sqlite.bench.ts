// `pnpm bench store-sqlite`: creates/s through the SQLite Store (group commit) against raw
// better-sqlite3 inserts with the same pragmas (one synchronous commit per row, and one per 64 rows),
// and the memory Store, in one run, so the figures are ratios on this machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, type Store } from '@orchard/store';
import Database from 'better-sqlite3';
import { createSqliteStore } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'orchard-sqlite-bench-'));
const value = new TextEncoder().encode(JSON.stringify({ kind: 'ConfigMap', data: { a: 'x'.repeat(400) } }));
const n = 2000;
const concurrency = 64;

async function storeCreates(store: Store): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i += concurrency) {
    const batch: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(n, i + concurrency); j++)
      batch.push(store.create(`/cm/default/${j}`, value));
    await Promise.all(batch);
  }
  const secs = (performance.now() - start) / 1000;
  await store.close();
  return n / secs;
}

function rawInserts(perCommit: number): number {
  const db = new Database(join(dir, `raw-${perCommit}.sqlite`));
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE log (id INTEGER PRIMARY KEY, key BLOB NOT NULL, value BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO log (id, key, value) VALUES (?, ?, ?)');
  const buf = Buffer.from(value);
  const start = performance.now();
  for (let i = 0; i < n; i += perCommit) {
    db.transaction(() => {
      for (let j = i; j < Math.min(n, i + perCommit); j++)
        insert.run(j + 1, Buffer.from(`/cm/default/${j}`), buf);
    })();
  }
  const secs = (performance.now() - start) / 1000;
  db.close();
  return n / secs;
}

const raw1 = rawInserts(1);
const raw64 = rawInserts(concurrency);
const sqlite = await storeCreates(createSqliteStore({ path: join(dir, 'store.sqlite') }));
const memory = await storeCreates(createMemoryStore());
rmSync(dir, { recursive: true, force: true });
const fmt = (x: number) => `${Math.round(x)}/s`;
console.log(`${n} creates of ${value.length} B, ${concurrency} in flight`);
console.log(`raw better-sqlite3, 1 row per commit:   ${fmt(raw1)}`);
console.log(`raw better-sqlite3, ${concurrency} rows per commit:  ${fmt(raw64)}`);
console.log(
  `SQLite Store (group commit):            ${fmt(sqlite)}  (${(sqlite / raw64).toFixed(2)}× raw batched, ${(sqlite / raw1).toFixed(1)}× raw per-row)`,
);
console.log(
  `memory Store:                           ${fmt(memory)}  (SQLite Store = ${(sqlite / memory).toFixed(3)}× memory)`,
);
