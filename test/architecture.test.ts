import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the architecture of STYLE.md §2 true: a package imports only packages of lower layers, the pure
 * packages import no Node built-ins (they must run in browsers and edge runtimes), and every workspace
 * dependency a package declares is imported by it. The packages come from the workspace, so a new
 * package is checked as soon as its folder exists; its layer comes from the table below.
 */
// STYLE.md §2 verbatim: the layer of every package, planned or present.
const styleLayers = `
L0  meta
L1  schema · store · cel · patch · ssa · rbac · authn · codecs
L2  watch-cache · pager · authz · store-sqlite · store-etcd · store-encryption · client
L3  apiserver · nodeagent · testing
`;
const layers: Record<string, number> = {};
for (const line of styleLayers.trim().split('\n')) {
  const m = /^L(\d)\s+(.*)$/.exec(line)!;
  for (const name of m[2]!.split('·')) layers[name.trim()] = Number(m[1]);
}
// A few packages build on another of their layer; these same-layer arrows are allowed (never the reverse).
// `testing` starts the server for tests ("nothing imports apiserver but testing and examples").
const sameLayerAllowed = new Set([
  'patch->schema',
  'ssa->schema',
  'cel->schema',
  'authn->cel',
  'testing->apiserver',
]);
const pure = new Set(['meta', 'schema', 'patch', 'ssa', 'cel', 'codecs']);

const root = join(import.meta.dirname, '..', 'packages');

function sourceFiles(dir: string, withTests = false): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p, withTests));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && (withTests || !name.endsWith('.test.ts')))
      out.push(p);
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.push((m[1] ?? m[2])!);
  return specs;
}

// Every workspace package under packages/ (a folder with a package.json).
const packages = readdirSync(root).filter((p) =>
  statSync(join(root, p, 'package.json'), { throwIfNoEntry: false })?.isFile(),
);

/** The `@orchard/*` packages a package.json declares (dependencies of every kind). */
function declaredWorkspaceDeps(pkg: string): string[] {
  const json = JSON.parse(readFileSync(join(root, pkg, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  const names = new Set<string>();
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'])
    for (const name of Object.keys(json[field] ?? {})) if (name.startsWith('@orchard/')) names.add(name);
  return [...names].sort();
}

describe('architecture', () => {
  it('finds the workspace packages', () => {
    expect(packages).toContain('meta');
    expect(packages).toContain('apiserver');
  });

  it('every package has a layer in STYLE.md §2', () => {
    expect(packages.filter((p) => layers[p] === undefined)).toEqual([]);
  });

  for (const pkg of packages) {
    it(`${pkg} imports every workspace package it declares`, () => {
      const used = new Set<string>();
      for (const file of sourceFiles(join(root, pkg), true))
        for (const spec of importsOf(file)) {
          const m = /^@orchard\/[^/]+/.exec(spec);
          if (m) used.add(m[0]);
        }
      expect(declaredWorkspaceDeps(pkg).filter((d) => !used.has(d))).toEqual([]);
    });
  }

  for (const pkg of packages) {
    it(`${pkg} imports only lower layers${pure.has(pkg) ? ' and no Node built-ins' : ''}`, () => {
      const problems: string[] = [];
      for (const file of sourceFiles(join(root, pkg, 'src'))) {
        // The conformance suite of a package may import vitest; it is not part of the runtime.
        for (const spec of importsOf(file)) {
          const m = /^@orchard\/([^/]+)/.exec(spec);
          if (m) {
            const dep = m[1]!;
            const ok = dep === pkg || layers[dep]! < layers[pkg]! || sameLayerAllowed.has(`${pkg}->${dep}`);
            if (!ok) problems.push(`${file}: ${pkg} (L${layers[pkg]}) imports ${spec} (L${layers[dep]})`);
          }
          if (
            pure.has(pkg) &&
            (spec.startsWith('node:') ||
              [
                'fs',
                'http',
                'https',
                'crypto',
                'zlib',
                'buffer',
                'path',
                'os',
                'child_process',
                'net',
                'tls',
              ].includes(spec))
          ) {
            problems.push(`${file}: pure package ${pkg} imports Node built-in ${spec}`);
          }
        }
        if (
          pure.has(pkg) &&
          /\bBuffer\.|\bprocess\.(?:env|cwd|exit)|\brequire\(/.test(readFileSync(file, 'utf8'))
        ) {
          problems.push(`${file}: pure package ${pkg} uses a Node-only global (Buffer / process / require)`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

/**
 * STYLE.md §3: `index.ts` is the public API. What Orchard packages share but users should not lean on
 * lives behind a package's `./internal` subpath; examples and package READMEs (what users copy) never
 * import it, and no public entry point re-exports it.
 */
describe('internal subpaths', () => {
  const repo = join(import.meta.dirname, '..');
  const internalSpec = /^@orchard\/[^/]+\/internal$/;

  it('examples import no @orchard/*/internal', () => {
    const problems: string[] = [];
    for (const file of sourceFiles(join(repo, 'examples'), true))
      for (const spec of importsOf(file)) if (internalSpec.test(spec)) problems.push(`${file}: ${spec}`);
    expect(problems).toEqual([]);
  });

  it('package READMEs import no @orchard/*/internal', () => {
    const problems: string[] = [];
    for (const pkg of packages) {
      const readme = join(root, pkg, 'README.md');
      if (!statSync(readme, { throwIfNoEntry: false })?.isFile()) continue;
      for (const m of readFileSync(readme, 'utf8').matchAll(/from '(@orchard\/[^']+)'/g))
        if (internalSpec.test(m[1]!)) problems.push(`${pkg}/README.md: ${m[1]}`);
    }
    expect(problems).toEqual([]);
  });

  it('no public entry point re-exports an internal subpath', () => {
    const problems: string[] = [];
    for (const pkg of packages) {
      const json = JSON.parse(readFileSync(join(root, pkg, 'package.json'), 'utf8')) as {
        exports?: Record<string, string>;
      };
      for (const [subpath, target] of Object.entries(json.exports ?? {})) {
        if (subpath === './internal' || typeof target !== 'string') continue;
        const text = readFileSync(join(root, pkg, target), 'utf8');
        for (const m of text.matchAll(/export\b[^;]*?from\s*'([^']+)'/g))
          if (internalSpec.test(m[1]!)) problems.push(`${pkg} ${subpath}: re-exports ${m[1]}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

// STYLE.md §7 names exported values camelCase (`defaultXOptions`, `watchWindowMs`): one style for
// every exported constant, SCREAMING_CASE included.
describe('exported constants', () => {
  it('are camelCase', () => {
    const problems: string[] = [];
    for (const pkg of packages)
      for (const file of sourceFiles(join(root, pkg, 'src')))
        for (const m of readFileSync(file, 'utf8').matchAll(/^export (?:const|let) ([A-Z][A-Z0-9_]+)\b/gm))
          problems.push(`${file}: ${m[1]}`);
    expect(problems).toEqual([]);
  });
});
