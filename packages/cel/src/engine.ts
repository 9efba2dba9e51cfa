/**
 * The seam to the underlying engine (`@marcbachmann/cel-js`): the only file that touches its
 * evaluator internals. It installs the cost hook (the engine has no cost accounting; see README,
 * "Upstream notes") by capturing each environment's evaluator through a probe function and
 * wrapping its `run(node, ctx)` method, which every child evaluation goes through.
 */
import type { Environment } from '@marcbachmann/cel-js';
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
