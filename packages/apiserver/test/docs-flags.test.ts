import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.js';

/** Every flag of `orchard-apiserver --help` is documented wherever the docs list the flags. */
const root = join(import.meta.dirname, '..', '..', '..');

async function helpFlags(): Promise<string[]> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await main(['--help']);
  } finally {
    spy.mockRestore();
  }
  const flags = [...out.matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1] as string);
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
