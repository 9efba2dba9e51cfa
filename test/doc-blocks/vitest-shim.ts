import { expect, inject } from 'vitest';

/**
 * What a documentation block imports as `vitest` when the doc test runs it: `describe`, `it`/`test`
 * (with `.skip`, `.skipIf`, `.runIf`, `.only`) and the hooks collect into the current run, and
 * `runCollected()` runs them in order, the way vitest would for one file (hooks around each test).
 * `expect` (and `inject`, for types) are vitest's own.
 */
type Fn = () => unknown;
interface Suite {
  readonly name: string;
  readonly tests: { name: string; fn: Fn | undefined }[];
  readonly suites: Suite[];
  readonly beforeAll: Fn[];
  readonly afterAll: Fn[];
  readonly beforeEach: Fn[];
  readonly afterEach: Fn[];
}
const newSuite = (name: string): Suite => ({
  name,
  tests: [],
  suites: [],
  beforeAll: [],
  afterAll: [],
  beforeEach: [],
  afterEach: [],
});
let current = newSuite('');
let root = current;

/** Starts collecting a fresh file. */
export function resetCollected(): void {
  root = newSuite('');
  current = root;
}

function testFn(name: string, a?: unknown, b?: unknown): void {
  const fn = (typeof a === 'function' ? a : b) as Fn | undefined;
  current.tests.push({ name, fn });
}
const skipped = (name: string) => current.tests.push({ name, fn: undefined });
type TestApi = typeof testFn & {
  skip: typeof skipped;
  only: typeof testFn;
  skipIf: (c: unknown) => typeof testFn;
  runIf: (c: unknown) => typeof testFn;
  concurrent: typeof testFn;
};
const testApi = Object.assign(testFn, {
  skip: skipped,
  only: testFn,
  concurrent: testFn,
  skipIf: (c: unknown) => (c ? skipped : testFn),
  runIf: (c: unknown) => (c ? testFn : skipped),
}) as TestApi;

/** `it`: one test. */
export const it = testApi;
/** `test`: one test. */
export const test = testApi;

/** `describe`: a group collected now, run in order. */
export function describe(name: string, a?: unknown, b?: unknown): void {
  const fn = (typeof a === 'function' ? a : b) as Fn;
  const parent = current;
  const s = newSuite(name);
  parent.suites.push(s);
  current = s;
  try {
    fn();
  } finally {
    current = parent;
  }
}
/** `beforeAll` hook. */
export const beforeAll = (fn: Fn) => void current.beforeAll.push(fn);
/** `afterAll` hook. */
export const afterAll = (fn: Fn) => void current.afterAll.push(fn);
/** `beforeEach` hook. */
export const beforeEach = (fn: Fn) => void current.beforeEach.push(fn);
/** `afterEach` hook. */
export const afterEach = (fn: Fn) => void current.afterEach.push(fn);
export { expect, inject };

async function runSuite(s: Suite, each: { before: Fn[]; after: Fn[] }, ran: string[], path: string) {
  const before = [...each.before, ...s.beforeEach];
  const after = [...s.afterEach, ...each.after];
  for (const h of s.beforeAll) await h();
  try {
    for (const t of s.tests) {
      if (!t.fn) continue;
      for (const h of before) await h();
      try {
        await t.fn();
        ran.push(`${path}${t.name}`);
      } catch (e) {
        throw new Error(`test "${path}${t.name}" failed: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        for (const h of after) await h();
      }
    }
    for (const c of s.suites) await runSuite(c, { before, after }, ran, `${path}${c.name} > `);
  } finally {
    for (const h of s.afterAll) await h();
  }
}

/** Runs what the block collected; resolves to the names of the tests that ran. */
export async function runCollected(): Promise<string[]> {
  const ran: string[] = [];
  await runSuite(root, { before: [], after: [] }, ran, '');
  resetCollected();
  return ran;
}
