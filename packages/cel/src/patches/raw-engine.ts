/**
 * Test support for the patch tests: the engine without any of our patches (a fresh
 * `Environment` configured as ours), to show what each patch fixes and to check the internal
 * shape each patch reaches into. A failed shape check names the patch, so an engine upgrade that
 * moves an internal says which patch to revisit. Not used by the package at runtime.
 */
import { Environment } from '@marcbachmann/cel-js';
import { expect } from 'vitest';
import { type EngineNode, walkAst } from './engine-ast.js';

/** A raw engine environment with the options ours uses and `dyn` variables by name. */
export function rawEnvironment(variables: Record<string, string> = {}): Environment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  for (const [name, type] of Object.entries(variables)) env.registerVariable(name, type);
  return env;
}

/** What the raw engine makes of `expr`: its value, or the error message. */
export function rawOutcome(
  expr: string,
  activation: Record<string, unknown> = {},
  variables: Record<string, string> = {},
): { value?: unknown; error?: string } {
  try {
    return { value: rawEnvironment(variables).evaluate(expr, activation) };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message.split('\n')[0]}` };
  }
}

/** The raw engine's parsed (and, unless `check` is false, type-checked) AST of `expr`. */
export function rawAst(expr: string, variables: Record<string, string> = {}, check = true) {
  const parsed = rawEnvironment(variables).parse(expr);
  if (check) {
    const checked = parsed.check();
    if (!checked.valid) throw checked.error;
  }
  return { root: parsed.ast as unknown as EngineNode, run: parsed as unknown as (ctx: object) => unknown };
}

/** The first node of `root` that `match` accepts. */
export function findNode(patch: string, root: EngineNode, match: (n: EngineNode) => boolean): EngineNode {
  let found: EngineNode | undefined;
  walkAst(root, (n) => {
    if (found === undefined && match(n)) found = n;
  });
  expect(found, `patch ${patch}: the engine's AST no longer has the node this patch wraps`).toBeDefined();
  return found as EngineNode;
}

/**
 * Evaluates `expr` on the raw engine with the handle of the first node `match` accepts replaced
 * by a recorder, and returns the arguments each call of that handle received.
 */
export function recordHandle(
  patch: string,
  expr: string,
  match: (n: EngineNode) => boolean,
  activation: Record<string, unknown> = {},
  variables: Record<string, string> = {},
): unknown[][] {
  const { root, run } = rawAst(expr, variables);
  const node = findNode(patch, root, match);
  const inner = node.handle;
  expect(typeof inner, `patch ${patch}: node '${node.op}' no longer carries a handle() function`).toBe(
    'function',
  );
  const calls: unknown[][] = [];
  node.handle = (...args: unknown[]) => {
    calls.push(args);
    return (inner as (...a: unknown[]) => unknown)(...args);
  };
  try {
    run(activation);
  } catch {
    // the raw engine may fail (that is often the behaviour the patch fixes); the calls count
  }
  expect(
    calls.length,
    `patch ${patch}: the engine no longer evaluates '${node.op}' through handle()`,
  ).toBeGreaterThan(0);
  return calls;
}

/** Asserts a relied-on engine internal, with a message naming the patch. */
export function expectShape(patch: string, ok: boolean, reliedOn: string): void {
  expect(
    ok,
    `patch ${patch} relies on: ${reliedOn} — the engine changed; revisit src/patches/${patch}.ts`,
  ).toBe(true);
}

/** Asserts the raw engine still shows the behaviour a patch fixes (else the patch may be dropped). */
export function expectUpstream(patch: string, ok: boolean, behaviour: string): void {
  expect(ok, `patch ${patch}: the engine no longer ${behaviour}; the patch may be obsolete`).toBe(true);
}
