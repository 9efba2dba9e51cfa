import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every export of a package's public entry points (package.json `exports`, except `./internal`) has a
 * TSDoc comment (issue 11 item 6): the index is the API a user reads, so each name says what it is.
 * A new undocumented export fails naming itself; document it rather than listing an exception.
 */

const root = join(import.meta.dirname, '..', 'packages');

function publicEntries(): [string, string][] {
  const out: [string, string][] = [];
  for (const pkg of readdirSync(root)) {
    const pj = join(root, pkg, 'package.json');
    if (!statSync(pj, { throwIfNoEntry: false })?.isFile()) continue;
    const exportsField = (JSON.parse(readFileSync(pj, 'utf8')) as { exports?: Record<string, unknown> })
      .exports;
    for (const [subpath, target] of Object.entries(exportsField ?? {})) {
      if (subpath === './internal' || typeof target !== 'string' || !target.endsWith('.ts')) continue;
      out.push([`@orchard/${pkg}${subpath.slice(1)}`, join(root, pkg, target)]);
    }
  }
  return out;
}

describe('public API documentation', () => {
  it('every export of every public entry point has a TSDoc comment', { timeout: 180_000 }, () => {
    const entries = publicEntries();
    const program = ts.createProgram(
      entries.map(([, file]) => file),
      {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
    );
    const checker = program.getTypeChecker();
    const undocumented: string[] = [];
    for (const [name, file] of entries) {
      const source = program.getSourceFile(file);
      const moduleSymbol = source && checker.getSymbolAtLocation(source);
      if (!moduleSymbol) throw new Error(`cannot read the exports of ${file}`);
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
        if (doc === '') undocumented.push(`${name} ${exported.name}`);
      }
    }
    expect(entries.length).toBeGreaterThan(20);
    expect(undocumented.sort()).toEqual([]);
  });
});
