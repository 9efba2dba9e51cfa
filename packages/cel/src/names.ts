/**
 * Qualified identifiers and containers, our layer over the engine (whose parser reads `a.b.c` as
 * field selections on a variable `a`; upstream-fix candidate listed in the README).
 *
 * CEL resolves a select chain `a.b.c` rooted at an identifier to the longest declared name:
 * `a.b.c`, else `a.b` (then `.c` selects a field), else `a`; with a container `x.y`, each of those
 * is tried as `x.y.<name>`, `x.<name>`, `<name>` first. Checked programs resolve against the
 * declared variables at compile time; unchecked programs resolve against the activation when
 * evaluated. Names bound by comprehensions and `cel.bind` are local and never qualified.
 */

import { evalError } from './library/values.js';
import type { EngineNode } from './patches/engine-ast.js';
import { walkAst } from './patches/engine-ast.js';

// The engine's checker, scope and type objects.
type Any = any;

interface CloneableNode extends EngineNode {
  clone(op: object, args: unknown): CloneableNode;
  setMeta(key: string, value: unknown): CloneableNode;
}

/** The candidate names of `name` in `container`, most qualified first. */
export function containerCandidates(name: string, container: string | undefined): string[] {
  const out: string[] = [];
  if (container) {
    const parts = container.split('.');
    for (let i = parts.length; i > 0; i--) out.push(`${parts.slice(0, i).join('.')}.${name}`);
  }
  out.push(name);
  return out;
}

/** Resolution candidates of a chain `parts[0].parts[1]…`: [qualified name, fields selected after it]. */
function chainCandidates(parts: string[], container: string | undefined): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (let i = parts.length; i > 0; i--) {
    const rest = parts.slice(i);
    for (const name of containerCandidates(parts.slice(0, i).join('.'), container)) out.push([name, rest]);
  }
  return out;
}

/** The identifiers bound locally (comprehension variables, `cel.bind`, two-variable macros). */
function localNames(root: EngineNode): Set<string> {
  const locals = new Set<string>();
  walkAst(root, (n) => {
    if (n.op === 'comprehension') {
      const v = (n.args as { iterVarName?: unknown }).iterVarName;
      if (typeof v === 'string') locals.add(v);
    }
    const m = n.meta?.macro;
    if (m !== undefined)
      for (const k of ['var', 'first', 'second', 'name'])
        if (typeof m[k] === 'string') locals.add(m[k] as string);
  });
  return locals;
}

/** The select chain ending at `node` (`.` only, rooted at an identifier): its nodes, outermost first. */
function chainOf(node: EngineNode): { nodes: EngineNode[]; parts: string[] } | undefined {
  const nodes: EngineNode[] = [];
  const fields: string[] = [];
  let n = node;
  while (n.op === '.') {
    if (n.meta?.alternate !== undefined) return undefined;
    nodes.push(n);
    const [operand, field] = n.args as [EngineNode, string];
    fields.push(field);
    n = operand;
  }
  if (n.op !== 'id' || n.meta?.alternate !== undefined) return undefined;
  nodes.push(n);
  return { nodes, parts: [n.args as string, ...fields.reverse()] };
}

const idOp = {
  name: 'id',
  check(chk: Any, ast: Any, ctx: Any) {
    const variable = ctx.getVariable(ast.args);
    if (!variable) throw chk.createError('unknown_variable', `Unknown variable: ${ast.args}`, ast);
    return variable.type;
  },
  evaluate(_ev: Any, ast: Any, ctx: Any) {
    return ctx.getCheckedValue(_ev, ast);
  },
};

function selectField(obj: unknown, field: string): unknown {
  let v: unknown;
  if (obj instanceof Map) v = obj.get(field);
  else if (typeof obj === 'object' && obj !== null && !Array.isArray(obj) && !(obj instanceof Uint8Array))
    v = Object.hasOwn(obj, field) ? (obj as Record<string, unknown>)[field] : undefined;
  else throw evalError(`type does not support field selection: ${field}`, 'no_such_field');
  if (v === undefined) throw evalError(`No such key: ${field}`, 'no_such_key');
  return v;
}

/**
 * Resolves qualified identifiers in a parsed AST (before type-checking). `declared` are the
 * declared variable names; with `unchecked`, chains are resolved against the activation instead.
 */
export function resolveNames(
  root: EngineNode,
  options: { declared: ReadonlySet<string>; container?: string; unchecked: boolean },
): void {
  const { declared, container, unchecked } = options;
  const locals = localNames(root);
  const done = new Set<EngineNode>();
  const chains: { nodes: EngineNode[]; parts: string[] }[] = [];
  walkAst(root, (n) => {
    if (done.has(n) || (n.op !== '.' && n.op !== 'id')) return;
    const chain = chainOf(n);
    if (chain === undefined) return;
    for (const x of chain.nodes) done.add(x);
    if (!locals.has(chain.parts[0] as string)) chains.push(chain);
  });
  for (const { nodes, parts } of chains) {
    if (parts.length === 1 && !container) continue;
    const candidates = chainCandidates(parts, container);
    const top = nodes[0] as CloneableNode;
    const rootId = nodes[nodes.length - 1] as CloneableNode;
    if (unchecked) {
      top.setMeta('alternate', runtimeResolver(top, rootId, candidates));
      continue;
    }
    const hit = candidates.find(([name]) => declared.has(name));
    if (hit === undefined) continue;
    const [name, rest] = hit;
    if (name === parts[0] && rest.length === parts.length - 1) continue; // the plain reading
    // the node that covers the resolved name gets an identifier node as its alternate
    const target = nodes[rest.length] as CloneableNode;
    const id = rootId.clone(idOp, name);
    (id as { start: number }).start = target.start;
    (id as { end: number }).end = target.end;
    target.setMeta('alternate', id);
  }
}

/** A node that looks the candidates up in the activation, longest name first. */
function runtimeResolver(
  top: CloneableNode,
  rootId: CloneableNode,
  candidates: [string, string[]][],
): CloneableNode {
  let dyn: unknown;
  const op = {
    name: 'id',
    check(chk: Any) {
      dyn = chk.getType('dyn');
      return dyn;
    },
    evaluate(ev: Any, _ast: Any, ctx: Any) {
      for (const [name, rest] of candidates) {
        let v: unknown;
        try {
          v = ctx.getCheckedValue(ev, { args: name, checkedType: dyn, start: top.start, end: top.end });
        } catch {
          continue;
        }
        for (const f of rest) v = selectField(v, f);
        return v;
      }
      throw evalError(`Unknown variable: ${rootId.args as string}`, 'unknown_variable');
    },
  };
  const node = rootId.clone(op, rootId.args);
  (node as { start: number }).start = top.start;
  (node as { end: number }).end = top.end;
  return node;
}
