// The shared body of the Orchard command stubs (`orchard-apiserver`, `orchard-nodeagent`). Plain
// JavaScript: it runs before TypeScript can load. Runs the package's built CLI (dist/cli.js) when
// installed from a tarball, its TypeScript source (src/cli.ts) in a checkout, where the workspace
// packages resolve to their .ts sources and tsx is registered: no build step is ever needed there,
// and a stale dist/ is never run.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Runs the `main(argv)` of the CLI of the package whose `bin/` holds `binUrl`. `registerTsx` imports
 * `tsx/esm/api` from the calling package (which declares tsx), so it resolves there.
 */
export async function launchCli(binUrl, registerTsx) {
  const root = join(dirname(fileURLToPath(binUrl)), '..');
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
  if (!useBuilt || inCheckout) (await registerTsx()).register();
  const mod = await import(pathToFileURL(useBuilt ? built : source).href);
  await mod.main(process.argv.slice(2));
}
