import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flavorByName } from '@orchard/meta';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The packed install, as a user of the published packages gets it: scripts/pack.mjs builds what is
// stale, packs every package with pnpm (publishConfig.exports, workspace:* → the version) and lints
// each tarball (publint --strict, attw --profile esm-only); then a temporary project outside the
// workspace installs the tarballs with plain npm, runs the CLI and imports every entry point.
//
// It needs the npm registry for the third-party dependencies (zod, yaml, etcd3 …): when
// `npm ping` fails the suite is skipped, saying so. The install skips install scripts
// (--ignore-scripts): better-sqlite3's native build takes minutes; nothing here opens SQLite, the
// server runs --storage memory, and @orchard/store-sqlite must still import without the addon.
// A cold run builds every package first (minutes: the declaration bundles type-check); CI's
// `pnpm build` step before the tests keeps this suite to packing, installing and running.

const root = join(import.meta.dirname, '..', '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const registryUp = spawnSync(npm, ['ping'], { timeout: 20_000, encoding: 'utf8' }).status === 0;
if (!registryUp) console.warn('packaging.e2e: skipped, the npm registry is unreachable (npm ping failed)');

interface Packed {
  name: string;
  file: string;
  bytes: number;
  problems: string[];
}

/** Runs a command to completion (bounded), resolving with its status and output. */
function run(cmd: string, args: string[], cwd: string, timeoutMs: number) {
  return new Promise<{ status: number | null; stdout: string; output: string }>((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, output });
    });
  });
}

/** The import specifiers of a packed package: its name plus each `exports` subpath. */
function entryPoints(project: string, name: string): string[] {
  const manifest = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
  const optionalVitest = manifest.peerDependenciesMeta?.vitest?.optional === true;
  return Object.keys(manifest.exports as Record<string, unknown>)
    .filter((sub) => !(optionalVitest && sub === './testing')) // runs inside the caller's vitest
    .map((sub) => (sub === '.' ? name : `${name}/${sub.slice(2)}`));
}

describe.skipIf(!registryUp)('packed install (npm, outside the workspace)', () => {
  const work = mkdtempSync(join(tmpdir(), 'orchard-packaging-'));
  const project = join(work, 'consumer');
  let packed: Packed[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const r = await run(
      process.execPath,
      [join(root, 'scripts', 'pack.mjs'), '--build', '--json', '--out', join(work, 'packs')],
      root,
      25 * 60_000,
    );
    expect(r.status, r.output).toBe(0);
    packed = (JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { results: Packed[] }).results;
    mkdirSync(project);
    const dependencies = Object.fromEntries(packed.map((p) => [p.name, `file:${p.file}`]));
    const devDependencies = { typescript: '~5.9.3', '@types/node': '^20.19.0' };
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies, devDependencies }),
    );
    const install = await run(
      npm,
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
      project,
      10 * 60_000,
    );
    expect(install.status, install.output).toBe(0);
  }, 40 * 60_000);

  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  it('packs every package, each tarball passing publint and attw, with no workspace: ranges left', () => {
    expect(packed.length).toBeGreaterThanOrEqual(19);
    for (const p of packed) expect(p.problems, p.name).toEqual([]);
    // The server keeps SQLite optional: a failed native build of better-sqlite3 does not fail the install.
    const server = JSON.parse(
      readFileSync(join(project, 'node_modules/@orchard/apiserver/package.json'), 'utf8'),
    );
    expect(server.optionalDependencies).toHaveProperty('@orchard/store-sqlite');
    expect(server.dependencies).not.toHaveProperty('@orchard/store-sqlite');
    expect(server.dependencies).not.toHaveProperty('tsx');
  });

  it('brings better-sqlite3 in only through @orchard/store-sqlite', async () => {
    const explain = await run(npm, ['explain', 'better-sqlite3', '--json'], project, 60_000);
    const dependents = (
      JSON.parse(explain.stdout) as { dependents: { from: { name?: string } }[] }[]
    ).flatMap((n) => n.dependents.map((d) => d.from.name));
    expect(new Set(dependents)).toEqual(new Set(['@orchard/store-sqlite']));
  });

  it('npx orchard-apiserver --help prints the usage', async () => {
    const r = await run('npx', ['--no-install', 'orchard-apiserver', '--help'], project, 120_000);
    expect(r.status, r.output).toBe(0);
    expect(r.output).toMatch(/--storage/);
    expect(r.output).toMatch(/--flavor/);
  });

  for (const flavorName of ['orch', 'kubernetes'] as const) {
    it(`starts (memory, 127.0.0.1, a random port, flavor ${flavorName}) and answers /readyz and discovery`, async () => {
      const bin = join(project, 'node_modules', '@orchard', 'apiserver', 'bin', 'orchard-apiserver.mjs');
      const args = ['--storage', 'memory', '--port', '0', '--host', '127.0.0.1', '--insecure-http'];
      const child = spawn(
        process.execPath,
        [bin, ...args, '--flavor', flavorName, '--data-dir', join(work, flavorName)],
        {
          cwd: project,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.push(child);
      let out = '';
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.stderr?.on('data', (d: Buffer) => {
        out += d.toString();
      });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      let m: RegExpExecArray | null = null;
      for (let i = 0; i < 1200 && m === null && child.exitCode === null; i++) {
        await new Promise((r) => setTimeout(r, 50));
        m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      }
      expect(m, out).not.toBeNull();
      const url = m?.[1] as string;
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.text()).toBe('ok');
      const groups = (await (await fetch(`${url}/apis`)).json()) as { groups: { name: string }[] };
      expect(groups.groups.map((g) => g.name)).toContain(flavorByName(flavorName).group('coordination'));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    });
  }

  it('imports every entry point of every package from a .mjs consumer', async () => {
    const specifiers = packed.flatMap((p) => entryPoints(project, p.name));
    const lines = specifiers.map((s, i) => `import * as m${i} from '${s}';`);
    lines.push(
      `const mods = { ${specifiers.map((s, i) => `'${s}': m${i}`).join(', ')} };`,
      'for (const [s, m] of Object.entries(mods)) if (Object.keys(m).length === 0) throw new Error(s + " exports nothing");',
      "console.log('imported', Object.keys(mods).length);",
    );
    writeFileSync(join(project, 'consumer.mjs'), `${lines.join('\n')}\n`);
    const r = await run(process.execPath, ['consumer.mjs'], project, 120_000);
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain(`imported ${specifiers.length}`);
  });

  it('type-checks a .ts consumer of every entry point with tsc --noEmit (NodeNext, strict)', async () => {
    const specifiers = packed.flatMap((p) => entryPoints(project, p.name));
    const lines = specifiers.map((s, i) => `import * as m${i} from '${s}';`);
    lines.push(
      "import { createApiServer } from '@orchard/apiserver';",
      "import { flavorByName, type ObjectMeta } from '@orchard/meta';",
      "const meta: ObjectMeta = { name: 'a', namespace: 'default' };",
      "const group: string = flavorByName('orch').group('coordination');",
      'export const used = [createApiServer, meta, group, ' +
        specifiers.map((_, i) => `m${i}`).join(', ') +
        '];',
    );
    writeFileSync(join(project, 'consumer.ts'), `${lines.join('\n')}\n`);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          types: ['node'],
          noEmit: true,
        },
        files: ['consumer.ts'],
      }),
    );
    const r = await run(
      process.execPath,
      [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      project,
      300_000,
    );
    expect(r.status, r.output).toBe(0);
  });
});
