/**
 * Cost by regions (issue 18 item 6): the per-node cost hook (`cost-hook.ts`) puts an extra frame
 * on every node the engine evaluates. Most nodes are evaluated exactly once whenever their parent
 * is (operands of an operator, arguments of a call, a field's operand), so their charges are known
 * before evaluation: a *region* is a node together with every descendant its evaluation runs
 * unconditionally and once, and its cost is a constant. Only the roots of regions (the right
 * operand of `&&`/`||`, both operands' roots there, ternary branches, comprehension steps) carry a
 * wrapper that adds the region's constant after it completes; calls whose result may be sized add
 * the size after they return; nodes we cannot see into (macros, patched `evaluate`s) switch to
 * the per-node hook for their subtree.
 *
 * This fast pass never decides an outcome on its own: whenever a region throws (even an error
 * that `||` absorbs), or the count reaches the budget, the program is evaluated again with the
 * per-node hook (the exact reference: same value or error, same cost, same halting point). So a
 * successful fast evaluation reports exactly the per-node total; the conformance runner checks
 * the two agree on every test. Relies on the same engine internals as `cost-hook` and the node
 * fields each operator evaluates (`left`/`right`, `condition`, `receiverWithArgs`, the
 * comprehension's `iterable`/`init`/`step`), which `cost-regions.test.ts` checks.
 */
import { budgetExceeded } from '../cost-tracker.js';
import { type CallCost, costSymbol, type Evaluator, nodeCost, sizeCost, switchRun } from './cost-hook.js';
import type { EngineNode } from './engine-ast.js';

type Any = any; // engine internals: nodes carry fields the public types do not declare
type Impl = (ev: Evaluator, ast: unknown, ctx: unknown) => unknown;

/** Checked types whose values are never sized (sizes count strings, bytes and lists only). */
const unsizedTypes: ReadonlySet<string> = new Set([
  'bool',
  'int',
  'uint',
  'double',
  'null_type',
  'timestamp',
  'google.protobuf.Timestamp',
  'duration',
  'google.protobuf.Duration',
]);

/** Test switch: `perNodeOnly` charges every program per node (the reference the region pass must match). */
export const costRegionOptions: { perNodeOnly: boolean } = { perNodeOnly: false };

/** Thrown while planning when a node's shape is not one the plan understands (per-node cost then). */
class Unplannable extends Error {}

/** The implementation the engine would run for `n` (resolved once: the engine replaces its dispatcher). */
function implOf(n: Any): Impl {
  if (Object.hasOwn(n, 'evaluate')) return (n.evaluate as Impl).bind(n); // our patches read `this`
  const meta = n.meta;
  const alt = meta?.alternate;
  if (alt !== undefined) return (ev, _ast, ctx) => alt.evaluate(ev, alt, ctx);
  const macro = meta?.macro;
  if (macro !== undefined) return (ev, _ast, ctx) => macro.evaluate(ev, macro, ctx);
  if (typeof meta?.evaluate !== 'function') throw new Unplannable('node without evaluate');
  return meta.evaluate as Impl;
}

function overrun(c: CallCost): never {
  c.rerun = true;
  throw budgetExceeded(c.limit);
}

/** A region root: evaluates, then charges the region's constant; any throw asks for the exact pass. */
function rootWrap(impl: Impl, cost: number): Impl {
  return (ev, ast, ctx) => {
    const c = ev[costSymbol];
    if (c === undefined || c.slow) return impl(ev, ast, ctx);
    // the exact pass will decide: stop here (an absorbed error must not let loops run on)
    if (c.rerun || c.halted) throw budgetExceeded(c.limit);
    let r: unknown;
    try {
      r = impl(ev, ast, ctx);
    } catch (e) {
      c.rerun = true;
      throw e;
    }
    c.used += cost;
    if (c.used > c.limit) overrun(c);
    return r;
  };
}

/** A call or `+` whose result may be a string, bytes or list: charged by its size after it returns. */
function sizedWrap(impl: Impl): Impl {
  return (ev, ast, ctx) => {
    const r = impl(ev, ast, ctx);
    const c = ev[costSymbol];
    if (c === undefined || c.slow) return r;
    const extra = sizeCost(r);
    if (extra > 0) {
      c.used += extra;
      if (c.used > c.limit) overrun(c);
    }
    return r;
  };
}

/** A node we do not see into: its subtree is charged by the per-node hook. */
function opaqueWrap(impl: Impl): Impl {
  return (ev, ast, ctx) => {
    const c = ev[costSymbol];
    if (c === undefined || c.slow) return impl(ev, ast, ctx);
    c.slow = true;
    switchRun(ev, true);
    try {
      return impl(ev, ast, ctx);
    } finally {
      c.slow = false;
      switchRun(ev, false);
    }
  };
}

interface Planner {
  seen: Set<unknown>;
}

/** The nodes `n`'s evaluation runs through `ev.run` exactly once, or undefined when `n` is opaque. */
function body(p: Planner, n: Any): number | undefined {
  if (Object.hasOwn(n, 'evaluate')) return undefined; // replaced by one of our patches
  const alt = n.meta?.alternate;
  if (alt !== undefined) return body(p, alt); // evaluated directly, not charged itself
  if (n.meta?.macro !== undefined) return undefined;
  const one = (c: unknown) => node(p, c, true);
  switch (n.op) {
    case 'value':
    case 'id':
    case 'accuValue':
    case 'accuInc':
      return 0;
    case '.':
    case '.?':
      return one(n.left);
    case '[]':
    case '[?]':
    case '!=':
    case '==':
    case 'in':
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return one(n.left) + one(n.right);
    case '!_':
    case '-_':
    case 'accuPush':
      return one(n.args);
    case 'call':
      return many(p, n.args?.[1]);
    case 'rcall':
      return many(p, n.receiverWithArgs);
    case 'list':
      return many(p, n.args);
    case 'map': {
      if (!Array.isArray(n.args)) throw new Unplannable('map entries');
      let sum = 0;
      for (const e of n.args) sum += many(p, e);
      return sum;
    }
    case '?:':
      return one(n.condition) + node(p, n.left, false) + node(p, n.right, false);
    case '||':
    case '&&':
      // the left operand's errors are absorbed: its own region, so a throw is seen
      return node(p, n.left, false) + node(p, n.right, false);
    case 'comprehension': {
      const a = n.args;
      return one(a?.iterable) + one(a?.init) + node(p, a?.step, false);
    }
    default:
      return undefined;
  }
}

function many(p: Planner, list: unknown): number {
  if (!Array.isArray(list)) throw new Unplannable('children');
  let sum = 0;
  for (const c of list) sum += node(p, c, true);
  return sum;
}

/**
 * Plans `n` (evaluated through `ev.run`): installs its wrapper when it needs one and returns what it
 * adds to the enclosing region (0 for a region root, which charges itself).
 */
function node(p: Planner, n: Any, inRegion: boolean): number {
  if (typeof n !== 'object' || n === null || typeof n.op !== 'string') throw new Unplannable('not a node');
  if (p.seen.has(n)) throw new Unplannable('a node reached twice');
  p.seen.add(n);
  const impl = implOf(n);
  const inner = body(p, n);
  let own = nodeCost(n.op) + (inner ?? 0);
  let wrapped: Impl | undefined = inner === undefined ? opaqueWrap(impl) : undefined;
  const op = n.op;
  if ((op === 'call' || op === 'rcall' || op === '+') && !unsizedTypes.has(n.checkedType?.name))
    wrapped = sizedWrap(wrapped ?? impl);
  if (!inRegion) {
    wrapped = rootWrap(wrapped ?? impl, own);
    own = 0;
  }
  if (wrapped !== undefined) n.evaluate = wrapped;
  return own;
}

/**
 * Plans a checked, patched AST for the region cost pass: installs the wrappers and returns the
 * root region's constant (charged after the program returns), or `undefined` when the AST has a
 * shape the plan does not understand, and the program is always charged per node.
 */
export function planCostRegions(root: EngineNode): number | undefined {
  const p: Planner = { seen: new Set([root]) };
  try {
    const impl = implOf(root);
    const inner = body(p, root);
    if (inner === undefined) (root as Any).evaluate = opaqueWrap(impl);
    return inner ?? 0;
  } catch (e) {
    if (e instanceof Unplannable) return undefined; // wrappers already installed pass through in per-node mode
    throw e;
  }
}
