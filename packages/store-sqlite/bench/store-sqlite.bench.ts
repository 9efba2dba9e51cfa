// `pnpm bench store-sqlite`: creates/s through the SQLite Store (group commit) against raw
// better-sqlite3 inserts with the same pragmas (one synchronous commit per row, and one per 64 rows),
// and the memory Store; then the full API path: the reference server's CLI as a child process
// (HTTPS, client certificate, every filter, the watch cache) on --storage sqlite and on --storage
// memory, ConfigMap creates/s and the latency of a list of 1,000. One run, so the figures are ratios
// on this machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
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

const listSize = 1000;
const listRuns = 50;
const cli = join(import.meta.dirname, '..', '..', 'apiserver', 'bin', 'orchard-apiserver.mjs');

/** Starts the CLI on `storage`, creates `n` ConfigMaps through HTTPS, then times lists of 1,000. */
async function apiPath(
  storage: 'sqlite' | 'memory',
  round: number,
): Promise<{ createsPerSec: number; listMs: number }> {
  const dataDir = join(dir, `api-${storage}-${round}`);
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  const child = spawn(
    process.execPath,
    [cli, '--port', '0', '--storage', storage, '--data-dir', dataDir, '--kubeconfig-out', kubeconfig],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  // The start-up log is shown only when the server fails to start.
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  for (let i = 0; i < 600 && !out.includes('kubeconfig written'); i++)
    await new Promise((r) => setTimeout(r, 50));
  const url = /listening on (\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`orchard-apiserver --storage ${storage} did not start: ${out}`);
  const kc = readFileSync(kubeconfig, 'utf8');
  const field = (name: string) =>
    Buffer.from(new RegExp(`${name}: (\\S+)`).exec(kc)?.[1] ?? '', 'base64').toString();
  const agent = new Agent({
    ca: field('certificate-authority-data'),
    cert: field('client-certificate-data'),
    key: field('client-key-data'),
    keepAlive: true,
    maxSockets: concurrency,
  });
  const call = (method: string, path: string, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        `${url}${path}`,
        { method, agent, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const data = JSON.parse(new TextDecoder().decode(value)).data;
  const cms = '/api/v1/namespaces/default/configmaps';
  // Warm-up (connections, JIT, the watch cache of configmaps), not measured.
  await Promise.all(
    Array.from({ length: concurrency }, (_, i) =>
      call('POST', cms, JSON.stringify({ metadata: { name: `warm-${i}`, namespace: 'default' }, data })),
    ),
  );
  const start = performance.now();
  let next = 0;
  const workers = Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < n; i = next++) {
      const status = await call('POST', cms, JSON.stringify({ metadata: { name: `cm-${i}` }, data }));
      if (status !== 201) throw new Error(`create ${i}: ${status}`);
    }
  });
  await Promise.all(workers);
  const createsPerSec = n / ((performance.now() - start) / 1000);
  const listNs = '/api/v1/namespaces/list/configmaps';
  await call('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: 'list' } }));
  for (let i = 0; i < listSize; i += concurrency)
    await Promise.all(
      Array.from({ length: Math.min(concurrency, listSize - i) }, (_, j) =>
        call('POST', listNs, JSON.stringify({ metadata: { name: `l-${i + j}` }, data })),
      ),
    );
  const times: number[] = [];
  for (let i = 0; i < listRuns; i++) {
    const t = performance.now();
    if ((await call('GET', listNs)) !== 200) throw new Error('list failed');
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  return { createsPerSec, listMs: times[Math.floor(times.length / 2)] as number };
}

/** Median latency of listing `listSize` keys: through a Store, and with one raw SQL select of the rows. */
async function storeList(store: Store): Promise<number> {
  for (let i = 0; i < listSize; i += concurrency)
    await Promise.all(
      Array.from({ length: Math.min(concurrency, listSize - i) }, (_, j) =>
        store.create(`/core/configmaps/list/l-${String(i + j).padStart(4, '0')}`, value),
      ),
    );
  const times: number[] = [];
  for (let i = 0; i < listRuns; i++) {
    const t = performance.now();
    const r = await store.list('/core/configmaps/list/');
    times.push(performance.now() - t);
    if (r.kvs.length !== listSize) throw new Error(`listed ${r.kvs.length}`);
  }
  await store.close();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

function rawList(): number {
  const db = new Database(join(dir, 'raw-list.sqlite'));
  db.exec('CREATE TABLE kv (key BLOB PRIMARY KEY, value BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
  const buf = Buffer.from(value);
  db.transaction(() => {
    for (let i = 0; i < listSize; i++) insert.run(Buffer.from(`/core/configmaps/list/l-${i}`), buf);
  })();
  const select = db.prepare('SELECT key, value FROM kv WHERE key >= ? AND key < ? ORDER BY key');
  const times: number[] = [];
  for (let i = 0; i < listRuns; i++) {
    const t = performance.now();
    const rows = select.all(Buffer.from('/core/configmaps/list/'), Buffer.from('/core/configmaps/list0'));
    times.push(performance.now() - t);
    if (rows.length !== listSize) throw new Error(`selected ${rows.length}`);
  }
  db.close();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const raw1 = rawInserts(1);
const raw64 = rawInserts(concurrency);
const sqlite = await storeCreates(createSqliteStore({ path: join(dir, 'store.sqlite') }));
const memory = await storeCreates(createMemoryStore());
const rawListMs = rawList();
const sqliteListMs = await storeList(createSqliteStore({ path: join(dir, 'list.sqlite') }));
const memoryListMs = await storeList(createMemoryStore());
// Two interleaved rounds per backend, the better of each kept: the shared machine's load moves a lot.
const rounds: Record<'sqlite' | 'memory', Array<{ createsPerSec: number; listMs: number }>> = {
  sqlite: [],
  memory: [],
};
for (let round = 0; round < 2; round++)
  for (const storage of ['sqlite', 'memory'] as const) rounds[storage].push(await apiPath(storage, round));
const best = (rs: Array<{ createsPerSec: number; listMs: number }>) => ({
  createsPerSec: Math.max(...rs.map((r) => r.createsPerSec)),
  listMs: Math.min(...rs.map((r) => r.listMs)),
});
const apiSqlite = best(rounds.sqlite);
const apiMemory = best(rounds.memory);
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

const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(
  `\nAPI path (orchard-apiserver child process, HTTPS): ${n} ConfigMap creates, ${concurrency} in flight; list of ${listSize}, median of ${listRuns}; best of 2 interleaved rounds each`,
);
console.log(
  `--storage sqlite: ${fmt(apiSqlite.createsPerSec)}  list ${ms(apiSqlite.listMs)}  (creates = ${(apiSqlite.createsPerSec / apiMemory.createsPerSec).toFixed(2)}× memory's, ${(apiSqlite.createsPerSec / raw64).toFixed(2)}× raw batched inserts, ${(apiSqlite.createsPerSec / raw1).toFixed(1)}× raw per-row; list = ${(apiSqlite.listMs / apiMemory.listMs).toFixed(2)}× memory's)`,
);
console.log(`--storage memory: ${fmt(apiMemory.createsPerSec)}  list ${ms(apiMemory.listMs)}`);
console.log(
  `list of ${listSize} below the API: raw SQL select ${ms(rawListMs)}, SQLite Store ${ms(sqliteListMs)}, memory Store ${ms(memoryListMs)}; the API list on SQLite = ${(apiSqlite.listMs / rawListMs).toFixed(1)}× the raw select, ${(apiSqlite.listMs / sqliteListMs).toFixed(1)}× the SQLite Store list (the server answers from its watch cache)`,
);
