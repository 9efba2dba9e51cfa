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

/** Captures the type checker of `env` and installs the checked-mode and unchecked-mode patches. */
export function captureChecker(env: Environment): Checker {
  probedChecker = undefined;
  env.check(`${checkerProbeKey}(0)`);
  const chk = probedChecker as Checker | undefined;
  probedChecker = undefined;
  if (chk === undefined || typeof chk.check !== 'function')
    throw new Error(
      'cel engine patch checker-hook: the checker probe did not capture a checker with check()',
    );
  const strict = chk.check;
  chk.check = function check(this: Checker, ast: EngineNode, ctx: unknown): CheckedType {
    return this[lenientSymbol]
      ? checkUnchecked(this, ast, ctx)
      : checkWithTypeParameters(this, strict, ast, ctx);
  };
  return chk;
}
