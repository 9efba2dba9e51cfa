import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

let built: Promise<string> | undefined;

/**
 * The reference server's CLI bundled into one file for the doc test: the same source as the
 * `orchard-apiserver` bin, but one module to load instead of hundreds to transpile, so a start costs
 * a second rather than ten on a loaded machine. Native modules stay external and resolve from
 * `packages/store-sqlite/node_modules`, where the bundle is written (git-ignored). Answers the command
 * prefix to start it (`node <bundle>`), built once per process. `ORCHARD_DOC_CLI=bin` runs the real bin instead.
 */
export function docCli(root: string): Promise<string> {
  built ??= bundle(root);
  return built;
}

async function bundle(root: string): Promise<string> {
  if (process.env.ORCHARD_DOC_CLI === 'bin') return join(root, 'node_modules', '.bin', 'orchard-apiserver');
  const dir = join(root, 'packages', 'store-sqlite', 'node_modules', '.cache', 'orchard-doc-blocks');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `orchard-doc-server-${process.pid}.mjs`);
  const cli = join(root, 'packages', 'apiserver', 'src', 'cli.ts');
  await build({
    stdin: {
      contents: `import { main } from ${JSON.stringify(cli)};\nawait main(process.argv.slice(2));\n`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    external: ['better-sqlite3', 'cbor-extract'],
    banner: {
      js: "import { createRequire as __orchardRequire } from 'node:module'; const require = __orchardRequire(import.meta.url);",
    },
  });
  return `${process.execPath} ${outfile}`;
}
