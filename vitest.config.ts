import { defineConfig } from 'vitest/config';

// One config for the whole monorepo: tests live beside the code (`*.test.ts`) and end-to-end
// suites under `packages/*/test/`. Servers started by tests bind to 127.0.0.1 only.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'examples/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
