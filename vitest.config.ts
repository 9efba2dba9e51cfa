import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// One config for the whole monorepo: tests live beside the code (`*.test.ts`) and end-to-end
// suites under `packages/*/test/`. Servers started by tests bind to 127.0.0.1 only.
//
// Projects: `unit` runs the unit tests beside the code (`packages/*/src/**/*.test.ts`) in worker
// threads that keep their module registry between files (`isolate: false`): most of these files take
// milliseconds, and loading their modules again for each file cost ~14 of CI's minutes (859 s of import
// against 69 s shared). That is safe because src modules hold no mutable module state (the house rule)
// and no unit test mocks a module; a test that fakes timers or spies restores them in its own hooks.
// `default` runs everything else (startTestServer() on memory, one process per file); `sqlite` runs a
// representative set of the server's HTTP suites again with ORCHARD_TEST_STORAGE=sqlite, so
// startTestServer() puts them on the durable backend (reads, writes, watch, SSA, lifecycle, CRDs).
// A third, `etcd`, runs the same suites with ORCHARD_TEST_STORAGE=etcd (each test server on its own
// one-member etcd 3.4); it is left out, saying so, only when no etcd binary is installed (.ci/run
// installs Debian's etcd-server, so CI always runs it).
// `vitest run --project unit --project default` skips the storage passes locally.
const unitTests = ['packages/*/src/**/*.test.ts'];

const sqliteSuites = [
  'http.e2e', // reads and writes of every verb
  'resource-version.e2e', // every resourceVersion / resourceVersionMatch cell
  'resource-version-watch.e2e', // continue-token expiry and every watch case
  'consistency.e2e',
  'watch.e2e',
  'watch-window.e2e',
  'patch', // JSON, merge and strategic merge patch
  'kubectl-patch.e2e', // kubectl patch and client-side apply
  'server-side-apply',
  'server-side-apply-kubectl.e2e', // server-side apply through stock kubectl
  'lifecycle', // finalizers, deletion, namespace termination, garbage collection
  'lifecycle-namespace',
  'lifecycle-gc',
  'crd',
  'crd-kubectl.e2e', // CRDs through stock kubectl
].map((name) => `packages/apiserver/test/${name}.test.ts`);

// resource-version.e2e is left out on etcd: its "list resourceVersion == the store's current revision"
// check reads the revision after the list, and on etcd the service-account controller's writes for new
// namespaces land in between (known failure, not a resourceVersion bug: the list is served at the
// revision it reports). resource-version-watch.e2e, split from it, stays off etcd as before.
const etcdSuites = sqliteSuites.filter(
  (f) => !f.endsWith('/resource-version.e2e.test.ts') && !f.endsWith('/resource-version-watch.e2e.test.ts'),
);
const etcdBinary = process.env.ORCHARD_ETCD_BIN ?? '/usr/bin/etcd';
const etcdProject = existsSync(etcdBinary)
  ? [
      {
        extends: true,
        test: { name: 'etcd', include: etcdSuites, env: { ORCHARD_TEST_STORAGE: 'etcd' } },
      },
    ]
  : [];
if (etcdProject.length === 0)
  console.warn(`vitest: the etcd project is skipped: no etcd binary at ${etcdBinary}`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time. Vitest's default is cpus - 1: one file at a time on CI's 2 cores,
    // where most e2e files spend their time waiting (etcd, kubectl subprocesses, timers) and the CPU
    // sat ~1.15 cores busy. VITEST_MAX_WORKERS overrides it for a measurement. Tests must not assume
    // they run alone: every server, etcd member and temporary directory takes its own free port or
    // mkdtemp path.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: unitTests, pool: 'threads', isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'default',
          include: ['packages/*/test/**/*.test.ts', 'examples/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'sqlite', include: sqliteSuites, env: { ORCHARD_TEST_STORAGE: 'sqlite' } },
      },
      ...etcdProject,
    ],
  },
});
