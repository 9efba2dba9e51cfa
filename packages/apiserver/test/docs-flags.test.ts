import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpText } from './helpers/cli-in-process.js';

/** Every flag of `orchard-apiserver --help` is documented wherever the docs list the flags. */
const root = join(import.meta.dirname, '..', '..', '..');

async function helpFlags(): Promise<string[]> {
  const out = await helpText();
  // A flag line starts two spaces in; wrapped help lines are indented further.
  const flags = [...out.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1] as string);
  return [...new Set(flags)];
}

describe('documented CLI flags', () => {
  it.each(['README.md', 'packages/apiserver/README.md', 'docs/reference-server.md'])('%s', async (file) => {
    const flags = await helpFlags();
    expect(flags).toContain('--tls-san');
    const text = readFileSync(join(root, file), 'utf8');
    const missing = flags.filter((f) => !new RegExp(`${f}(?![a-z-])`).test(text) && f !== '--help');
    expect(missing).toEqual([]);
  });
});
