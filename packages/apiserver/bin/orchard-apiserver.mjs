#!/usr/bin/env node
// The `orchard-apiserver` command. Runs the built CLI (dist/cli.js) when present; in a checkout
// without a build it registers tsx and runs the TypeScript source, so no build step is needed.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli.js');
let mod;
if (existsSync(built)) {
  mod = await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  mod = await import(pathToFileURL(join(root, 'src', 'cli.ts')).href);
}
await mod.main(process.argv.slice(2));
