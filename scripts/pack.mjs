#!/usr/bin/env node
// Packs every package under packages/ the way it would be published, and lints each tarball.
//
//   node scripts/pack.mjs [--out DIR] [--build] [--no-lint] [--json]
//
// --build   runs each package's tsup build first when its dist/ is missing or older than its src/
//           (a cold build of all packages takes minutes: the declaration bundles type-check)
// --out     where the tarballs go (default: a fresh temporary directory)
// --no-lint skips publint and @arethetypeswrong/cli
// --json    prints one JSON summary line instead of the table
//
// Packing is `pnpm -r pack`: pnpm swaps `publishConfig.exports` in and turns `workspace:*` into the
// real version, which `npm pack` does not. publint runs with `--strict` (warnings fail) and
// @arethetypeswrong/cli with the `esm-only` profile: the packages are ESM only, so the CommonJS
// `require` and node10 resolution columns are expected to fail and are not checked.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args[outIndex + 1] : mkdtempSync(join(tmpdir(), 'orchard-pack-'));

/** pnpm as a command line: the running one when this script is started by pnpm, else `npx pnpm@10`. */
function pnpmCommand() {
  const execPath = process.env.npm_execpath ?? '';
  if (/pnpm/.test(execPath) && existsSync(execPath)) return [process.execPath, execPath];
  return ['npx', '--yes', 'pnpm@10'];
}

function run(cmd, cmdArgs, cwd, timeoutMs) {
  const r = spawnSync(cmd, cmdArgs, { cwd, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 });
  return {
    status: r.status ?? -1,
    output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`,
  };
}

/** The newest modification time under a directory (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const packages = readdirSync(join(root, 'packages'))
  .filter((d) => existsSync(join(root, 'packages', d, 'package.json')))
  .sort();
const [pnpm, ...pnpmArgs] = pnpmCommand();

if (flag('--build')) {
  const stale = packages.filter((d) => {
    const dir = join(root, 'packages', d);
    const dist = newest(join(dir, 'dist'));
    return (
      dist === 0 || dist < Math.max(newest(join(dir, 'src')), statSync(join(dir, 'package.json')).mtimeMs)
    );
  });
  if (stale.length > 0) {
    // Topological order across the stale ones; dependencies build before dependants.
    const filters = stale.flatMap((d) => ['--filter', `./packages/${d}`]);
    const r = run(pnpm, [...pnpmArgs, '-r', ...filters, 'run', 'build'], root, 20 * 60_000);
    if (r.status !== 0) {
      process.stderr.write(r.output);
      throw new Error(`build failed for ${stale.join(', ')}`);
    }
  }
  process.stderr.write(
    `built: ${stale.length === 0 ? 'nothing (every dist/ is fresh)' : stale.join(', ')}\n`,
  );
}

const missing = packages.filter((d) => !existsSync(join(root, 'packages', d, 'dist')));
if (missing.length > 0)
  throw new Error(`no dist/ in ${missing.join(', ')}: run with --build (or pnpm build)`);

const packed = run(
  pnpm,
  [...pnpmArgs, '-r', '--filter', './packages/*', 'pack', '--pack-destination', out],
  root,
  5 * 60_000,
);
if (packed.status !== 0) {
  process.stderr.write(packed.output);
  throw new Error('pnpm pack failed');
}

const bin = join(root, 'node_modules', '.bin');
const results = [];
for (const d of packages) {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8'));
  const file = join(out, `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`);
  if (!existsSync(file)) throw new Error(`pnpm pack wrote no ${file}`);
  const packedManifest = JSON.parse(
    execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }),
  );
  const result = { name: manifest.name, file, bytes: statSync(file).size, problems: [] };
  for (const [field, deps] of Object.entries(packedManifest)) {
    if (!/[dD]ependencies$/.test(field) || typeof deps !== 'object') continue;
    for (const [dep, spec] of Object.entries(deps))
      if (String(spec).startsWith('workspace:')) result.problems.push(`${field}.${dep} is still ${spec}`);
  }
  if (!flag('--no-lint')) {
    const publint = run(join(bin, 'publint'), ['run', file, '--strict'], out, 120_000);
    if (publint.status !== 0 || !/All good/.test(publint.output))
      result.problems.push(`publint: ${publint.output.trim()}`);
    const attw = run(
      join(bin, 'attw'),
      [file, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--no-emoji'],
      out,
      120_000,
    );
    if (attw.status !== 0) result.problems.push(`attw: ${attw.output.trim()}`);
  }
  results.push(result);
}

if (flag('--json')) process.stdout.write(`${JSON.stringify({ out, results })}\n`);
else {
  for (const r of results)
    process.stdout.write(
      `${r.name.padEnd(28)} ${(r.bytes / 1024).toFixed(1).padStart(7)} KiB  ${r.problems.length === 0 ? 'ok' : r.problems.join('\n')}\n`,
    );
  process.stdout.write(`tarballs in ${out}\n`);
}
if (results.some((r) => r.problems.length > 0)) process.exitCode = 1;
