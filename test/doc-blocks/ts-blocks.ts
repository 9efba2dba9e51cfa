import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { type DocBlock, where } from './blocks.js';

/**
 * TypeScript blocks: each is rewritten so `@orchard/<pkg>[/<sub>]` imports point at the package's
 * source entry (from its package.json `exports`) and `vitest` at the doc test's shim, then compiled
 * as a module under `<root>/.doc-blocks/` (git-ignored), where third-party imports resolve from the
 * root's node_modules. Two names are given to every block that uses them without defining them:
 * `api`, a `TestServer` (kubernetes flavor) shared by the blocks of one file, and `client`, its
 * admin REST client. A block that runs may use no other undefined name; a `no-run` block's other
 * undefined names are declared `any`, so only the API it calls is checked.
 */
export const providedNames = ['api', 'client'] as const;
// "Cannot find name 'x'", the same with "Did you mean", "No value exists in scope for the shorthand property 'x'".
const freeNameCodes = new Set([2304, 2552, 18004]);

function entryPoints(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const packages = join(root, 'packages');
  for (const pkg of readdirSync(packages)) {
    const pj = join(packages, pkg, 'package.json');
    if (!statSync(pj, { throwIfNoEntry: false })?.isFile()) continue;
    const json = JSON.parse(readFileSync(pj, 'utf8')) as { name?: string; exports?: Record<string, unknown> };
    for (const [sub, target] of Object.entries(json.exports ?? {}))
      if (typeof target === 'string' && json.name)
        out.set(`${json.name}${sub.slice(1)}`, join(packages, pkg, target));
  }
  return out;
}

/** One block as a module on disk, ready to compile and run. */
export interface TsModule {
  readonly block: DocBlock;
  readonly file: string;
  readonly index: number;
  /** The source after the import rewrite (no prelude yet). */
  readonly source: string;
  /** Names it uses without defining, after the first compile. */
  free: string[];
  text: string;
}

/** Where block modules are written. */
export const blockDir = (root: string) => join(root, '.doc-blocks');

/** The modules of the given ts blocks (imports rewritten). */
export function tsModules(root: string, blocks: readonly DocBlock[]): TsModule[] {
  const entries = entryPoints(root);
  const shim = join(root, 'test', 'doc-blocks', 'vitest-shim.ts');
  return blocks.map((block, index) => {
    const source = block.text.replace(
      /(from\s+|import\s*\(\s*)(['"])([^'"]+)\2/g,
      (m, pre: string, q: string, spec: string) => {
        if (spec === 'vitest') return `${pre}${q}${shim}${q}`;
        const target = entries.get(spec);
        return target ? `${pre}${q}${target}${q}` : m;
      },
    );
    const file = join(blockDir(root), `${block.file.replace(/[^a-zA-Z0-9]+/g, '_')}_${block.line}.ts`);
    return { block, file, index, source, free: [], text: `${source}\nexport {};\n` };
  });
}

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  strict: true,
  // Callbacks a no-run block passes to a name it leaves to the reader have no contextual type.
  noImplicitAny: false,
  noEmit: true,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
  types: ['node'],
};

function compile(mods: readonly TsModule[]): ts.Diagnostic[] {
  const byFile = new Map(mods.map((m) => [m.file, m.text]));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = byFile.get(fileName);
    return text !== undefined
      ? ts.createSourceFile(fileName, text, languageVersion, true)
      : getSourceFile(fileName, languageVersion, onError, shouldCreate);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => byFile.has(fileName) || fileExists(fileName);
  const program = ts.createProgram([...byFile.keys()], options, host);
  return [...byFile.keys()].flatMap((f) => {
    const sf = program.getSourceFile(f)!;
    return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
  });
}

const preludeTypes = `import type { TestServer as DocTestServer } from '${'@orchard/testing'}';`;

/**
 * Type-checks every module; fills in `free` and the final `text` (with the prelude that binds the
 * provided names). Answers one message per problem, naming the block's `file:line` (and the line
 * inside the markdown file where the compiler points).
 */
export function typecheck(root: string, mods: TsModule[], runs: (m: TsModule) => boolean): string[] {
  const testingEntry = entryPoints(root).get('@orchard/testing')!;
  for (const d of compile(mods)) {
    if (!freeNameCodes.has(d.code) || !d.file) continue;
    const name = /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, '\n'))?.[1];
    const m = mods.find((x) => x.file === d.file!.fileName);
    if (name && m && !m.free.includes(name)) m.free.push(name);
  }
  const problems: string[] = [];
  for (const m of mods) {
    const provided = runs(m) ? m.free.filter((n) => (providedNames as readonly string[]).includes(n)) : [];
    const others = m.free.filter((n) => !provided.includes(n));
    if (runs(m) && others.length > 0)
      problems.push(
        `${where(m.block)}: the block uses ${others.join(', ')} without defining ${others.length > 1 ? 'them' : 'it'}: define ${others.length > 1 ? 'them' : 'it'} in the block, or tag it \`\`\`ts no-run`,
      );
    const lines = [
      preludeTypes.replace('@orchard/testing', testingEntry),
      ...provided.map((n) =>
        n === 'api'
          ? `const api = (globalThis as any).__orchardDocBlock.api as DocTestServer;`
          : `const client = (globalThis as any).__orchardDocBlock.client as DocTestServer['client'];`,
      ),
      ...(runs(m) ? [] : others.map((n) => `type ${n} = any; declare const ${n}: any;`)),
    ];
    // The prelude is one line, so compiler lines map to markdown lines by a fixed offset.
    m.text = `${lines.join(' ')}\n${m.source}\nexport {};\n`;
  }
  for (const d of compile(mods)) {
    const m = d.file && mods.find((x) => x.file === d.file!.fileName);
    if (!m || !d.file) continue;
    if (freeNameCodes.has(d.code) && runs(m)) continue; // reported above, once per block
    const line = d.file.getLineAndCharacterOfPosition(d.start ?? 0).line; // 0 = prelude
    problems.push(
      `${m.block.file}:${m.block.line + Math.max(line, 1)} (block at line ${m.block.line}): ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
  }
  return problems;
}

/** Writes the modules to disk for running. */
export function writeModules(root: string, mods: readonly TsModule[]): void {
  mkdirSync(blockDir(root), { recursive: true });
  for (const m of mods) writeFileSync(m.file, m.text);
}
