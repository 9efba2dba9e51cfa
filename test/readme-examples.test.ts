import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every package README's TypeScript examples type-check against the package's real API (issue 11
 * item 6): a renamed or removed export, a changed signature or a wrong option name in an example
 * fails here. Each ```ts block is compiled as a module placed in its package folder (so `@orchard/*`
 * imports resolve as the package's own do). Names the example leaves to the reader (`crd`, `obj`,
 * `configMap` …) are declared `any` — only names missing from scope are filled in that way, never an
 * import; every other diagnostic fails the test.
 */
// "Cannot find name 'x'", the same with "Did you mean", "No value exists in scope for the shorthand property 'x'".
const freeNameCodes = new Set([2304, 2552, 18004]);
const root = join(import.meta.dirname, '..', 'packages');

interface Example {
  readonly file: string;
  readonly text: string;
}

function readmeExamples(): Example[] {
  const out: Example[] = [];
  for (const pkg of readdirSync(root).sort()) {
    const readme = join(root, pkg, 'README.md');
    if (!statSync(readme, { throwIfNoEntry: false })?.isFile()) continue;
    const blocks = [...readFileSync(readme, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)];
    blocks.forEach((m, i) => {
      out.push({ file: join(root, pkg, `__readme_example_${i}.ts`), text: `${m[1]!}\nexport {};\n` });
    });
  }
  return out;
}

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
};

function compile(examples: readonly Example[]): ts.Diagnostic[] {
  const byFile = new Map(examples.map((e) => [e.file, e.text]));
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

describe('README examples', () => {
  it('type-check against the packages they document', { timeout: 180_000 }, () => {
    let examples = readmeExamples();
    expect(examples.length).toBeGreaterThan(10);
    // First pass: find the names the examples leave to the reader.
    const free = new Map<string, Set<string>>();
    for (const d of compile(examples)) {
      if (!freeNameCodes.has(d.code) || !d.file) continue;
      const name = /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, '\n'))?.[1];
      if (name) free.set(d.file.fileName, (free.get(d.file.fileName) ?? new Set()).add(name));
    }
    examples = examples.map((e) => {
      const names = [...(free.get(e.file) ?? [])];
      return names.length === 0
        ? e
        : { ...e, text: `${names.map((n) => `declare const ${n}: any;`).join('\n')}\n${e.text}` };
    });
    const problems = compile(examples).map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(root.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
    expect(problems).toEqual([]);
  });
});
