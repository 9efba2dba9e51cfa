/**
 * The engine's AST as our patches see it (`@marcbachmann/cel-js` 8.0.0, pinned exactly): every
 * patch in this folder reaches into these node fields, so this is the one shape an engine upgrade
 * must keep (`engine-ast.test.ts` checks it). A patch is applied to each node of a parsed or
 * checked AST and may wrap the node's `handle` (the overload the checker chose) or replace its
 * `evaluate`.
 */

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

/** An overload implementation the checker put on a node (`(l, r, ast, ev)` for binary operators). */
export type Handle = (...a: unknown[]) => unknown;

/** What a patch of checked nodes knows about the compilation. */
export interface AstPatchContext {
  /** The original expression (for positions of compile-time errors). */
  source: string;
  /** True for `compile(…, { check: false })`: static errors are deferred to evaluation. */
  unchecked: boolean;
}

/** One upstream behaviour fixed on the checked AST (see the README table of patches). */
export interface AstPatch {
  /** The patch's name, as in the README table and its test's messages. */
  readonly name: string;
  /** The node ops `apply` acts on (compile calls it only for nodes with one of them). */
  readonly ops: readonly string[];
  apply(node: EngineNode, context: AstPatchContext): void;
}

/** Wraps `node.handle` with `wrap(inner)` when the node has one and `wrap` returns a handle. */
export function wrapHandle(node: EngineNode, wrap: (inner: Handle) => Handle | undefined): void {
  const inner = node.handle;
  if (typeof inner !== 'function') return;
  const patched = wrap(inner);
  if (patched !== undefined) node.handle = patched;
}

/** The name of a `call`/`rcall` node's function. */
export function callName(node: EngineNode): string {
  return (node.args as [string])[0];
}

/** Visits every node of an engine AST, including macro expansions and rewritten alternates. */
export function walkAst(root: EngineNode, visit: (n: EngineNode) => void): void {
  walkValue(root, visit, new Set<unknown>());
}

// A top-level recursion (no closure per walk): compile walks every AST several times.
function walkValue(v: unknown, visit: (n: EngineNode) => void, seen: Set<unknown>): void {
  if (typeof v !== 'object' || v === null || seen.has(v)) return;
  seen.add(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) walkValue(v[i], visit, seen);
    return;
  }
  const n = v as Partial<EngineNode>;
  if (typeof n.op === 'string' && typeof n.evaluate === 'function') {
    visit(n as EngineNode);
    walkValue(n.args, visit, seen);
    const meta = n.meta;
    if (meta?.alternate) walkValue(meta.alternate, visit, seen);
    const macro = meta?.macro;
    if (macro) for (const k of Object.keys(macro)) walkValue(macro[k], visit, seen);
    return;
  }
  if (Object.getPrototypeOf(v) === Object.prototype)
    for (const k of Object.keys(v)) walkValue((v as Record<string, unknown>)[k], visit, seen);
}
