/**
 * `pnpm bench testing/import`: how long a fresh process takes to import `@orchard/testing`, which
 * every test file that starts a server pays once (vitest runs each file in a process of its own)
 * before its first start. Built as tsup builds the packages: the workspace packages bundled, the
 * dynamic imports of the durable backends kept as chunks of their own (loaded only when a test asks
 * for them), dependencies imported from where they are installed. Against the same measured for
 * `@kubernetes/client-node`, the client such tests often load beside it. Median (min, max) of
 * `BENCH_IMPORT_RUNS` (default 9) fresh processes each, the two alternating. Node's own start-up
 * (~80 ms here with `NODE_EXTRA_CA_CERTS`) is outside both figures: the clock starts at the import.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { externalDependencies } from './external-dependencies.js';

const runs = Number(process.env.BENCH_IMPORT_RUNS ?? 9);
/** A module that times one dynamic import of `specifier` and prints the milliseconds. */
const timer = (specifier: string) =>
  `const t0 = performance.now();\nawait import(${JSON.stringify(specifier)});\nconsole.log(performance.now() - t0);\n`;

const dir = mkdtempSync(join(tmpdir(), 'orchard-import-bench-'));
try {
  const ours = join(dir, 'ours.mjs');
  writeFileSync(ours, timer(fileURLToPath(new URL('../src/index.ts', import.meta.url))));
  await build({
    entryPoints: [ours],
    outdir: join(dir, 'out'),
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    plugins: [externalDependencies],
  });
  const peer = join(dir, 'peer.mjs');
  writeFileSync(peer, timer(import.meta.resolve('@kubernetes/client-node')));
  const once = (file: string): number => {
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`import child failed (${r.status ?? r.signal}): ${r.stderr}`);
    return Number(r.stdout.trim().split('\n').at(-1));
  };
  const times = { ours: [] as number[], peer: [] as number[] };
  for (let i = 0; i < runs; i++) {
    times.ours.push(once(join(dir, 'out', 'ours.js')));
    times.peer.push(once(peer));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const line = (xs: number[]) =>
    `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
  console.log(`import @orchard/testing [built] (${runs} processes): ${line(times.ours)}`);
  console.log(`import @kubernetes/client-node (${runs} processes): ${line(times.peer)}`);
  console.log(`ratio (ours ÷ client-node): ${(median(times.ours) / median(times.peer)).toFixed(2)}×`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
