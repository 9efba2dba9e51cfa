/**
 * Patch `cost-hook`: the engine has no cost accounting, so an expression runs to completion
 * however much it costs. cel-go charges every evaluated node and halts at the budget; we capture
 * each environment's evaluator (a probe function registered on the base environment runs with
 * the evaluator as `this`) and hook its `run(node, ctx)`, which every child evaluation passes
 * through. The hook is the exact reference; most evaluations take the faster region pass of
 * `cost-regions.ts` and come back here only when that pass cannot decide. Relies on: a registered function's `this` is the evaluator; `evaluator.run(ast, ctx)`
 * evaluates one node by calling `ast.evaluate(evaluator, ast, ctx)`.
 */
import type { Environment } from '@marcbachmann/cel-js';
import type { CostTracker } from '../cost-tracker.js';
import { budgetExceeded } from '../cost-tracker.js';
import { ListCreateBaseCost, ListTraversalCostFactor, StringTraversalCostFactor } from '../limits.js';
import type { EngineNode } from './engine-ast.js';

/** Per-call cost state kept on the evaluator while a program runs (evaluation is synchronous). */
export interface CallCost {
  used: number;
  limit: number;
  halted: boolean;
  shared: CostTracker | undefined;
  /** True while nodes are charged one by one by the hook (the exact pass, or an opaque subtree). */
  slow: boolean;
  /** Set by the region pass (`cost-regions.ts`) when only the exact pass can give the outcome. */
  rerun: boolean;
}

export const costSymbol = Symbol('orchard.cel.cost');

/** The engine's evaluator, as far as the cost hook uses it. */
export interface Evaluator {
  run(ast: EngineNode, ctx: unknown): unknown;
  [costSymbol]?: CallCost | undefined;
}

const MapCreateBaseCost = 30;

/** Charge `units` to the running evaluation (from a library function, `this` is the evaluator). */
export function chargeCost(ev: unknown, units: number): void {
  const c = (ev as Evaluator | undefined)?.[costSymbol];
  if (c === undefined) return;
  c.used += units;
  if (c.used > c.limit) {
    c.halted = true;
    throw budgetExceeded(c.limit);
  }
}

/** What evaluating one node of `op` costs before its result is sized (a literal costs nothing). */
export function nodeCost(op: string): number {
  return op === 'value' ? 0 : op === 'list' ? ListCreateBaseCost : op === 'map' ? MapCreateBaseCost : 1;
}

/** Size-proportional cost of a value produced by a call (strings, lists, bytes, maps). */
export function sizeCost(v: unknown): number {
  if (typeof v === 'string') return Math.ceil(v.length * StringTraversalCostFactor);
  if (Array.isArray(v)) return Math.ceil(v.length * ListTraversalCostFactor);
  if (v instanceof Uint8Array) return Math.ceil(v.length * StringTraversalCostFactor);
  return 0;
}

/** The hook: charges the node, evaluates it, then charges the size of a call's or `+`'s result. */
function chargedRun(this: Evaluator, ast: EngineNode, ctx: unknown): unknown {
  const c = this[costSymbol];
  if (c === undefined) return ast.evaluate(this, ast, ctx);
  const op = ast.op;
  if (op === 'value') return ast.evaluate(this, ast, ctx);
  c.used += nodeCost(op);
  if (c.used > c.limit) halt(c);
  // only calls and `+` can produce a sized value worth charging for
  if (op !== 'call' && op !== 'rcall' && op !== '+') return ast.evaluate(this, ast, ctx);
  const r = ast.evaluate(this, ast, ctx);
  const extra = sizeCost(r);
  if (extra > 0) {
    c.used += extra;
    if (c.used > c.limit) halt(c);
  }
  return r;
}

let plainRun: Evaluator['run'] | undefined;

/**
 * Puts the per-node hook on `ev.run` (`on`) or the engine's own `run` back; only while a program
 * is charged per node (the exact pass, an opaque subtree of the region pass).
 */
export function switchRun(ev: Evaluator, on: boolean): void {
  ev.run = on ? chargedRun : (plainRun as Evaluator['run']);
}

/** Whether `ev.run` is the engine's own (no per-node hook active, e.g. from an enclosing program). */
export function isPlainRun(ev: Evaluator): boolean {
  return ev.run === plainRun;
}

function halt(c: CallCost): never {
  c.halted = true;
  throw budgetExceeded(c.limit);
}

export const evaluatorProbeKey = '__orchard_probe';
let probed: Evaluator | undefined;

/** Registers the probe on a base environment (before it is cloned). */
export function registerProbe(env: Environment): void {
  env.registerFunction(`${evaluatorProbeKey}(): bool`, function (this: Evaluator) {
    probed = this;
    return true;
  });
}

/** Captures the evaluator of `env` (whose base registered the probe) and installs the cost hook. */
export function captureEvaluator(env: Environment): Evaluator {
  probed = undefined;
  env.evaluate(`${evaluatorProbeKey}()`);
  const ev = probed as Evaluator | undefined;
  probed = undefined;
  if (ev === undefined || typeof ev.run !== 'function')
    throw new Error(
      'cel engine patch cost-hook: the evaluator probe did not capture an evaluator with run()',
    );
  plainRun ??= ev.run;
  if (ev.run !== plainRun)
    throw new Error('cel engine patch cost-hook: evaluators no longer share one run() implementation');
  switchRun(ev, false); // an own property from the start: swapping it keeps the evaluator's shape
  return ev;
}
