import { defineConfig, type Options } from 'tsup';

/** The one build recipe of every package: ESM + declarations from the given entry points. */
export function packageBuild(entry: string[] = ['src/index.ts'], extra: Options = {}) {
  return defineConfig({ entry, format: ['esm'], dts: true, clean: true, sourcemap: true, ...extra });
}
