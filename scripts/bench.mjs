#!/usr/bin/env node
// `pnpm bench [package[/bench]…]`: runs every packages/*/bench/*.bench.ts (or only those of the named
// packages) one after another with tsx, each in its own Node process, and stops at the first failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const packagesDir = join(root, 'packages');
// `<package>/<bench>` (e.g. `apiserver/metrics-overhead`) runs one file of a package.
const args = process.argv.slice(2).map((p) => p.replace(/^@orchard\//, ''));
const only = new Map(args.filter((a) => a.includes('/')).map((a) => a.split('/', 2)));
const wanted = args.map((a) => a.split('/')[0]);
const unknown = wanted.filter((p) => !existsSync(join(packagesDir, p)));
if (unknown.length > 0) {
  console.error(`bench: no such package: ${unknown.join(', ')}`);
  process.exit(2);
}
const packages = (wanted.length > 0 ? wanted : readdirSync(packagesDir)).sort();
const files = packages.flatMap((pkg) => {
  const dir = join(packagesDir, pkg, 'bench');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts') && (!only.has(pkg) || f === `${only.get(pkg)}.bench.ts`))
    .sort()
    .map((f) => join(dir, f));
});
if (files.length === 0) {
  console.error('bench: no benchmarks found');
  process.exit(1);
}
for (const file of files) {
  console.log(`\n=== ${file.slice(root.length + 1)} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) {
    console.error(`bench: ${file} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}
