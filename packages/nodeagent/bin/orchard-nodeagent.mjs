#!/usr/bin/env node
// The `orchard-nodeagent` command. Runs the built CLI (dist/cli.js) when present, else the
// TypeScript source. In a checkout the workspace packages resolve to their TypeScript sources, so tsx
// is registered whenever a dependency resolves to a .ts file: no build step is ever needed.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli.js');
const useBuilt = existsSync(built);
let needsTsx = !useBuilt;
if (!needsTsx) {
  try {
    needsTsx = import.meta.resolve('@orchard/meta').endsWith('.ts');
  } catch {
    needsTsx = false;
  }
}
if (needsTsx) {
  const { register } = await import('tsx/esm/api');
  register();
}
const mod = await import(pathToFileURL(useBuilt ? built : join(root, 'src', 'cli.ts')).href);
await mod.main(process.argv.slice(2));
