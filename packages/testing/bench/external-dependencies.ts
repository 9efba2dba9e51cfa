import type { Plugin } from 'esbuild';

/**
 * The benches' "built" form, as tsup builds the packages: only the workspace packages are bundled;
 * every dependency stays an import of its installed file, loaded as it is for the published packages.
 */
export const externalDependencies: Plugin = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (a) => {
      if (a.path.startsWith('@orchard/') || a.pluginData === 'resolving') return undefined;
      const r = await b.resolve(a.path, { resolveDir: a.resolveDir, kind: a.kind, pluginData: 'resolving' });
      if (r.errors.length > 0 || r.external) return { path: a.path, external: true };
      return { path: r.path, external: true };
    });
  },
};
