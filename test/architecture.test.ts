import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the architecture of STYLE.md §2 true: a package imports only packages of lower layers, and
 * the pure packages import no Node built-ins (they must run in browsers and edge runtimes).
 */
const layers: Record<string, number> = {
  meta: 0,
  schema: 1,
  store: 1,
  cel: 1,
  patch: 1,
  ssa: 1,
  rbac: 1,
  authn: 1,
  codecs: 1,
  'watch-cache': 2,
  pager: 2,
  authz: 2,
  'store-sqlite': 2,
  'store-etcd': 2,
  client: 2,
  apiserver: 3,
  nodeagent: 3,
  testing: 4,
};
// Within layer 1 a few packages build on each other; these same-layer arrows are allowed (never the reverse).
const sameLayerAllowed = new Set(['patch->schema', 'ssa->schema', 'cel->schema']);
const pure = new Set(['meta', 'schema', 'patch', 'ssa', 'cel', 'codecs']);

const root = join(import.meta.dirname, '..', 'packages');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(p);
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

const packages = readdirSync(root).filter((p) =>
  statSync(join(root, p, 'src'), { throwIfNoEntry: false })?.isDirectory(),
);

describe('architecture', () => {
  it('every package has a layer', () => {
    expect(packages.filter((p) => layers[p] === undefined)).toEqual([]);
  });

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
