import { defineConfig } from 'vitest/config';

// One config for the whole monorepo: tests live beside the code (`*.test.ts`) and end-to-end
// suites under `packages/*/test/`. Servers started by tests bind to 127.0.0.1 only.
//
// Two projects: `default` runs everything (startTestServer() on memory); `sqlite` runs a
// representative set of the server's HTTP suites again with ORCHARD_TEST_STORAGE=sqlite, so
// startTestServer() puts them on the durable backend (reads, writes, watch, SSA, lifecycle, CRDs).
// `vitest run --project default` skips the second pass locally.
const sqliteSuites = [
  'http.e2e', // reads and writes of every verb
  'resource-version.e2e', // every resourceVersion / resourceVersionMatch cell
  'consistency.e2e',
  'watch.e2e',
  'watch-window.e2e',
  'patch', // JSON, merge and strategic merge patch
  'server-side-apply',
  'lifecycle', // finalizers, deletion, namespace termination, garbage collection
  'lifecycle-namespace',
  'lifecycle-gc',
  'crd',
].map((name) => `packages/apiserver/test/${name}.test.ts`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'examples/**/*.test.ts',
            'test/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: { name: 'sqlite', include: sqliteSuites, env: { ORCHARD_TEST_STORAGE: 'sqlite' } },
      },
    ],
  },
});
