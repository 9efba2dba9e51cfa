/**
 * The seam to the underlying engine (`@marcbachmann/cel-js`): the only file that touches its
 * evaluator internals. It installs the cost hook (the engine has no cost accounting; see README,
 * "Upstream notes") by capturing each environment's evaluator through a probe function and
 * wrapping its `run(node, ctx)` method, which every child evaluation goes through.
 */
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';
import type { CostTracker } from './cost-tracker.js';
import { budgetExceeded } from './cost-tracker.js';
import { ListCreateBaseCost, ListTraversalCostFactor, StringTraversalCostFactor } from './limits.js';

/** A node of the engine's AST, as far as this package reads it. */
export interface EngineNode {
  op: string;
  args: unknown;
  start: number;
  end: number;
  meta: { alternate?: EngineNode; macro?: Record<string, unknown> };
  checkedType?: { name: string };
  check(chk: unknown, ast: unknown, ctx: unknown): { name: string } | undefined;
  handle?: (...a: unknown[]) => unknown;
  evaluate(ev: unknown, ast: unknown, ctx: unknown): unknown;
}

/** Per-call cost state kept on the evaluator while a program runs (evaluation is synchronous). */
export interface CallCost {
  used: number;
  limit: number;
  halted: boolean;
  shared: CostTracker | undefined;
}

export const COST = Symbol('orchard.cel.cost');

interface Evaluator {
  run(ast: EngineNode, ctx: unknown): unknown;
  [COST]?: CallCost | undefined;
}

const MapCreateBaseCost = 30;

/** Charge `units` to the running evaluation (from a library function, `this` is the evaluator). */
export function chargeCost(ev: unknown, units: number): void {
  const c = (ev as Evaluator | undefined)?.[COST];
  if (c === undefined) return;
  c.used += units;
  if (c.used > c.limit) {
    c.halted = true;
    throw budgetExceeded(c.limit);
  }
}

/** Size-proportional cost of a value produced by a call (strings, lists, bytes, maps). */
function sizeCost(v: unknown): number {
  if (typeof v === 'string') return Math.ceil(v.length * StringTraversalCostFactor);
  if (Array.isArray(v)) return Math.ceil(v.length * ListTraversalCostFactor);
  if (v instanceof Uint8Array) return Math.ceil(v.length * StringTraversalCostFactor);
  return 0;
}

function installCostHook(ev: Evaluator): void {
  ev.run = function run(this: Evaluator, ast: EngineNode, ctx: unknown): unknown {
    const c = this[COST];
    if (c === undefined) return ast.evaluate(this, ast, ctx);
    const op = ast.op;
    if (op !== 'value') {
      c.used += op === 'list' ? ListCreateBaseCost : op === 'map' ? MapCreateBaseCost : 1;
      if (c.used > c.limit) {
        c.halted = true;
        throw budgetExceeded(c.limit);
      }
    }
    const r = ast.evaluate(this, ast, ctx);
    if (op === 'call' || op === 'rcall' || op === '+') {
      const extra = sizeCost(r);
      if (extra > 0) {
        c.used += extra;
        if (c.used > c.limit) {
          c.halted = true;
          throw budgetExceeded(c.limit);
        }
      }
    }
    return r;
  };
}

const PROBE = '__orchard_probe';
let probed: Evaluator | undefined;

/** Registers the probe on a base environment (before it is cloned). */
export function registerProbe(env: Environment): void {
  env.registerFunction(`${PROBE}(): bool`, function (this: Evaluator) {
    probed = this;
    return true;
  });
}

/** Captures the evaluator of `env` (whose base registered the probe) and installs the cost hook. */
export function captureEvaluator(env: Environment): Evaluator {
  probed = undefined;
  env.evaluate(`${PROBE}()`);
  const ev = probed as Evaluator | undefined;
  if (ev === undefined) throw new Error('cel engine: evaluator probe did not run');
  installCostHook(ev);
  return ev;
}

export type { Evaluator };

/** The engine's type checker, as far as the unchecked mode uses it. */
interface Checker {
  check(ast: EngineNode, ctx: unknown): CheckedType;
  getType(name: string): CheckedType;
  registry: { getOptionalType(t: CheckedType): CheckedType };
  [LENIENT]?: boolean;
}

interface CheckedType {
  name: string;
  kind?: string;
  valueType?: CheckedType;
  hasPlaceholderType?: boolean;
  templated(registry: unknown, binding: Map<string, string>): CheckedType;
}

const SELECTIONS = new Set(['.', '.?', '[]', '[?]']);

const PARAMS_AS_DYN = new Map([
  ['A', 'dyn'],
  ['T', 'dyn'],
  ['K', 'dyn'],
  ['V', 'dyn'],
]);

/** `type` with every unresolved type parameter replaced by `dyn` (as cel-go reports it). */
export function paramsAsDyn(chk: Checker, type: CheckedType): CheckedType {
  return type.hasPlaceholderType ? type.templated(chk.registry, PARAMS_AS_DYN) : type;
}

/** While set on a checker, `check` runs in the unchecked mode (see `installLenientCheck`). */
export const LENIENT = Symbol('orchard.cel.lenient');

const CHECK_PROBE = '__orchard_check_probe';
let probedChecker: Checker | undefined;

/** Registers the checker probe (a macro whose type-check hook receives the checker). */
export function registerCheckProbe(env: Environment): void {
  env.registerFunction(`${CHECK_PROBE}(ast): bool`, () => ({
    typeCheck(chk: Checker) {
      probedChecker = chk;
      return chk.getType('bool');
    },
    evaluate: () => true,
  }));
}

/**
 * Captures the type checker of `env` and installs the unchecked mode on it: while the checker's
 * `LENIENT` flag is set, every node is typed `dyn` for its parent (so operators, functions and
 * field selections dispatch on the runtime types, as an unchecked cel-go program does), an
 * unknown identifier is read from the activation at evaluation, and a node the checker rejects
 * (no overload, unknown function, …) is kept and raises that error when — and only if — it is
 * evaluated, so `f_unknown(1) || true` is `true`.
 */
export function captureChecker(env: Environment): Checker {
  probedChecker = undefined;
  env.check(`${CHECK_PROBE}(0)`);
  const chk = probedChecker as Checker | undefined;
  if (chk === undefined) throw new Error('cel engine: checker probe did not run');
  installLenientCheck(chk);
  return chk;
}

/**
 * In the checked mode: an expression whose type is an unresolved type parameter (`T`, e.g. the
 * element of `[]`) is typed `dyn`, and so are the parameters of an operand of a selection
 * (`{}.?k`, `optional.none()[0]`), as in cel-go; the engine would otherwise fail on any operator
 * or selection applied to them (`[].all(x, x > 0)`).
 */
function installLenientCheck(chk: Checker): void {
  const strict = chk.check;
  chk.check = function check(this: Checker, ast: EngineNode, ctx: unknown): CheckedType {
    if (!this[LENIENT]) {
      if (ast.checkedType !== undefined) return ast.checkedType as CheckedType;
      if (ast.op === '+' && ast.meta.alternate === undefined) {
        // the engine declares `duration + timestamp` with result type duration: check it as the
        // (commutative) `timestamp + duration`
        const [l, r] = ast.args as [EngineNode, EngineNode];
        if (
          this.check(l, ctx).name === 'google.protobuf.Duration' &&
          this.check(r, ctx).name === 'google.protobuf.Timestamp'
        )
          ast.args = [r, l];
      }
      if ((ast.op === 'list' || ast.op === '?:') && ast.meta.alternate === undefined) {
        // a `null` literal beside optional<T> values is an optional<T> (null is assignable to
        // abstract types, as in cel-go): `[optional.of(1), null]` is a list<optional<int>>
        const elems = ast.op === 'list' ? (ast.args as EngineNode[]) : (ast.args as EngineNode[]).slice(1);
        if (elems.length >= 2) {
          const types = elems.map((e) => this.check(e, ctx));
          const others = types.filter((t) => t.name !== 'null');
          const t = others[0];
          if (t?.kind === 'optional' && others.length < types.length && others.every((x) => x === t))
            elems.forEach((e, i) => {
              if (e.op === 'value' && e.args === null && types[i]?.name === 'null')
                (e as { checkedType?: unknown }).checkedType = t;
            });
        }
      }
      if (SELECTIONS.has(ast.op) && ast.meta.alternate === undefined) {
        // selecting from `{}`, `optional.none()`, …: the operand's parameters are dyn
        const operand = (ast.args as [EngineNode])[0];
        const ot = this.check(operand, ctx);
        if (ot.hasPlaceholderType) (operand as { checkedType?: unknown }).checkedType = paramsAsDyn(this, ot);
      }
      const t = strict.call(this, ast, ctx);
      if (t.kind !== 'param') return t;
      const dyn = this.getType('dyn');
      (ast as { checkedType?: unknown }).checkedType = dyn;
      return dyn;
    }
    const dyn = this.getType('dyn');
    if (ast.checkedType !== undefined) return dyn;
    try {
      (ast as { checkedType?: unknown }).checkedType = ast.check(this, ast, ctx) ?? dyn;
    } catch (e) {
      const err = e as { name?: string; code?: string; summary?: string; message?: string };
      if (err?.name !== 'TypeError' || err.code === undefined) throw e;
      // an unknown identifier is looked up in the activation; any other static error is deferred
      (ast as { checkedType?: unknown }).checkedType = dyn;
      if (!(ast.op === 'id' && err.code === 'unknown_variable')) {
        const code = err.code;
        const summary = err.summary ?? err.message ?? String(e);
        ast.evaluate = () => {
          throw new EvaluationError({ code, message: summary, node: ast as never });
        };
      }
    }
    return dyn;
  };
}

/** Visits every node of an engine AST, including macro expansions and rewritten alternates. */
export function walkAst(root: EngineNode, visit: (n: EngineNode) => void): void {
  const seen = new Set<unknown>();
  const go = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) go(x);
      return;
    }
    const n = v as Partial<EngineNode>;
    if (typeof n.op === 'string' && typeof n.evaluate === 'function') {
      visit(n as EngineNode);
      go(n.args);
      const meta = n.meta;
      if (meta?.alternate) go(meta.alternate);
      if (meta?.macro) for (const k of Object.keys(meta.macro)) go(meta.macro[k]);
      return;
    }
    if (Object.getPrototypeOf(v) === Object.prototype)
      for (const k of Object.keys(v)) go((v as Record<string, unknown>)[k]);
  };
  go(root);
}
