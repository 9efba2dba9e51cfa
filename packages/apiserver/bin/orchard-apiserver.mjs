#!/usr/bin/env node
// The `orchard-apiserver` command. Runs the built CLI (dist/cli.js) when installed from a tarball,
// the TypeScript source in a checkout, where the workspace packages resolve to their .ts sources and
// tsx is registered: no build step is ever needed there, and a stale dist/ is never run.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli.js');
const source = join(root, 'src', 'cli.ts');
// In a checkout (dependencies resolve to .ts) the source runs, so a stale dist/ is never used.
let inCheckout = false;
try {
  inCheckout = import.meta.resolve('@orchard/meta').endsWith('.ts');
} catch {
  inCheckout = false;
}
const useBuilt = existsSync(built) && !(inCheckout && existsSync(source));
if (!useBuilt || inCheckout) {
  const { register } = await import('tsx/esm/api');
  register();
}
const mod = await import(pathToFileURL(useBuilt ? built : source).href);
await mod.main(process.argv.slice(2));
