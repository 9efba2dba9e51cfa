/**
 * The seam to the engine's type checker: a probe macro registered on the base environment
 * receives the checker in its `typeCheck(chk)` hook; we capture it per environment and wrap its
 * `check(ast, ctx)`, which the checker calls for every node. Two patches ride on the wrapper:
 * `type-parameters` (checked programs) and `unchecked-programs` (`compile(…, { check: false })`).
 * Relies on: a function registered as `name(ast): T` returning `{ typeCheck, evaluate }` is a
 * macro whose `typeCheck` gets the checker; `checker.check`, `getType`, `registry`.
 */
import type { Environment } from '@marcbachmann/cel-js';
import type { EngineNode } from './engine-ast.js';
import { checkWithTypeParameters } from './type-parameters.js';
import { checkUnchecked } from './unchecked-programs.js';

/** While set on a checker, `check` runs in the unchecked mode. */
export const lenientSymbol = Symbol('orchard.cel.lenient');

/**
 * What a compile wants to see of each node the checker checks, set on the checker for the
 * duration of one `check()` (compile is synchronous, so one per checker at a time): `enter`
 * before the node is checked (parse-level fixes such as `has()` on any expression), `leave` once
 * it has its checked type and overload (the checked-AST patches). Each node is seen once.
 */
export interface CheckHooks {
  enter(node: EngineNode): void;
  leave(node: EngineNode): void;
}

/** The hooks of the compile running on a checker (see `CheckHooks`). */
export const hooksSymbol = Symbol('orchard.cel.hooks');

/** The engine's type checker, as far as the patches use it. */
export interface Checker {
  check(ast: EngineNode, ctx: unknown): CheckedType;
  getType(name: string): CheckedType;
  createError(code: string, message: string, node: EngineNode): Error;
  registry: {
    getOptionalType(t: CheckedType): CheckedType;
    getListType(t: CheckedType): CheckedType;
    getMapType(k: CheckedType, v: CheckedType): CheckedType;
  };
  [lenientSymbol]?: boolean;
  [hooksSymbol]?: CheckHooks | undefined;
}

/** A type of the engine's checker. */
export interface CheckedType {
  name: string;
  kind?: string;
  valueType?: CheckedType;
  hasPlaceholderType?: boolean;
  templated(registry: unknown, binding: Map<string, string>): CheckedType;
  unify(registry: unknown, other: CheckedType): CheckedType | undefined;
}

export const checkerProbeKey = '__orchard_check_probe';
let probedChecker: Checker | undefined;

/** Registers the checker probe (a macro whose type-check hook receives the checker). */
export function registerCheckProbe(env: Environment): void {
  env.registerFunction(`${checkerProbeKey}(ast): bool`, () => ({
    typeCheck(chk: Checker) {
      probedChecker = chk;
      return chk.getType('bool');
    },
    evaluate: () => true,
  }));
}

type Strict = Parameters<typeof checkWithTypeParameters>[1];

function checkOne(chk: Checker, strict: Strict, ast: EngineNode, ctx: unknown): CheckedType {
  return chk[lenientSymbol] ? checkUnchecked(chk, ast, ctx) : checkWithTypeParameters(chk, strict, ast, ctx);
}

/**
 * Captures the type checker of `env` and installs the hooks (`hooksSymbol`) and, unless
 * `hooksOnly` (a checking-only environment that keeps the engine's own checking), the
 * checked-mode and unchecked-mode patches.
 */
export function captureChecker(env: Environment, hooksOnly = false): Checker {
  probedChecker = undefined;
  env.check(`${checkerProbeKey}(0)`);
  const chk = probedChecker as Checker | undefined;
  probedChecker = undefined;
  if (chk === undefined || typeof chk.check !== 'function')
    throw new Error(
      'cel engine patch checker-hook: the checker probe did not capture a checker with check()',
    );
  const strict = chk.check;
  const one = hooksOnly ? (c: Checker, s: Strict, a: EngineNode, x: unknown) => s.call(c, a, x) : checkOne;
  chk.check = function check(this: Checker, ast: EngineNode, ctx: unknown): CheckedType {
    const hooks = this[hooksSymbol];
    if (hooks === undefined || ast.checkedType !== undefined) return one(this, strict, ast, ctx);
    hooks.enter(ast);
    const t = one(this, strict, ast, ctx);
    hooks.leave(ast);
    return t;
  };
  return chk;
}
