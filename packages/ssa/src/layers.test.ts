import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The vocabulary order of STYLE.md §2 for this package: fieldpath → typed → merge → manager, each
 * folder importing only earlier ones; and no Node built-ins outside tests (the package is pure).
 */
const layers = ['fieldpath', 'typed', 'merge', 'manager'];
const root = new URL('./', import.meta.url);

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(new URL(`${dir}/`, root))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => ({ file: `${dir}/${f}`, text: readFileSync(new URL(`${dir}/${f}`, root), 'utf8') }));
}

function imports(text: string): string[] {
  return [...text.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1] as string);
}

describe('@orchard/ssa layering', () => {
  it.each(layers.map((l, i) => [l, i] as const))('%s imports only earlier layers', (layer, i) => {
    for (const { file, text } of sources(layer)) {
      for (const spec of imports(text)) {
        const m = /^\.\.\/([a-z-]+)\//.exec(spec);
        if (!m) continue;
        const target = layers.indexOf(m[1] as string);
        expect({ file, spec, ok: target >= 0 && target <= i }).toEqual({ file, spec, ok: true });
      }
    }
  });

  it('uses no Node built-ins outside tests', () => {
    const all = [...layers, '.'].flatMap((d) => (d === '.' ? sources('.') : sources(d)));
    expect(all.length).toBeGreaterThan(10);
    for (const { file, text } of all) {
      if (file.includes('testing/')) continue;
      for (const spec of imports(text))
        expect({ file, spec, builtin: spec.startsWith('node:') }).toEqual({ file, spec, builtin: false });
    }
  });
});
