import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN.md: the pure packages run unchanged in browsers and edge runtimes, so a web UI can validate
 * and merge manifests with the server's own logic. Bundling each for a browser target proves it:
 * esbuild fails on any Node built-in the code (or a dependency) pulls in.
 */
const pure = ['meta', 'schema', 'patch', 'ssa', 'cel', 'codecs'];

describe('pure packages bundle for the browser', () => {
  for (const pkg of pure) {
    it(`@orchard/${pkg}`, async () => {
      const result = await build({
        entryPoints: [join(import.meta.dirname, '..', 'packages', pkg, 'src', 'index.ts')],
        bundle: true,
        platform: 'browser',
        format: 'esm',
        write: false,
        logLevel: 'silent',
        target: 'es2022',
      });
      expect(result.errors).toEqual([]);
      expect(result.outputFiles[0]!.text.length).toBeGreaterThan(0);
    });
  }
  // The subpath exports that hide heavier dependencies (protobufjs, cbor-x) are pure too.
  for (const sub of ['codecs/protobuf', 'codecs/cbor', 'codecs/table']) {
    const [pkg, dir] = sub.split('/') as [string, string];
    it(`@orchard/${sub}`, async () => {
      const result = await build({
        entryPoints: [join(import.meta.dirname, '..', 'packages', pkg, 'src', dir, 'index.ts')],
        bundle: true,
        platform: 'browser',
        format: 'esm',
        write: false,
        logLevel: 'silent',
        target: 'es2022',
      });
      expect(result.errors).toEqual([]);
      expect(result.outputFiles[0]!.text.length).toBeGreaterThan(0);
    });
  }
});
