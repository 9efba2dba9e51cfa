/**
 * Patch `optional-entries`: the engine's parser rejects optional entries in list and map literals
 * (`[?x]`, `{?k: v}`). `source-rewrite.ts` blanks the `?` and records the entry; here the literal
 * node gets CEL's semantics: the entry's value must be an `optional<T>` (checked), and the entry
 * is included only when the optional has a value. Relies on: `node.setMeta('check', fn)` replaces
 * a node's type-check; `node.evaluate(ev, ast, ctx)` with `ev.run(child, ctx)`; the checker's
 * `registry.getListType/getMapType`, types' `unify`.
 */
import { Optional } from '@marcbachmann/cel-js';
import { evalError } from '../library/values.js';
import type { CheckedType, Checker } from './checker-hook.js';
import type { EngineNode } from './engine-ast.js';

interface MetaNode extends EngineNode {
  setMeta(key: string, value: unknown): MetaNode;
}

/** The engine's evaluator: `run` evaluates a child node. */
interface Runner {
  run(node: EngineNode, ctx: unknown): unknown;
}

/** The element type of an optional entry (`optional<T>` → `T`); anything else is rejected. */
function optionalValueType(chk: Checker, t: CheckedType, node: EngineNode): CheckedType {
  if (t.kind === 'optional' && t.valueType !== undefined) return t.valueType;
  if (t.kind === 'dyn') return t;
  throw chk.createError(
    'no_matching_overload',
    `optional entry must be an optional value, got '${t.name}'`,
    node,
  );
}

function unify(chk: Checker, a: CheckedType | undefined, b: CheckedType): CheckedType {
  if (a === undefined) return b;
  return a.unify(chk.registry, b) || chk.getType('dyn');
}

function present(v: unknown): { has: boolean; value?: unknown } {
  if (!(v instanceof Optional))
    throw evalError('optional entry must be an optional value', 'no_matching_overload');
  return v.hasValue() ? { has: true, value: v.value() } : { has: false };
}

/** `[a, ?b]`: `b` is `optional<T>`; the element is included when it has a value. */
export function optionalList(node: EngineNode, flags: boolean[]): void {
  const elems = node.args as EngineNode[];
  const m = node as MetaNode;
  m.setMeta('check', (chk: Checker, _ast: unknown, ctx: unknown) => {
    let t: CheckedType | undefined;
    elems.forEach((e, i) => {
      const et = chk.check(e, ctx);
      t = unify(chk, t, flags[i] ? optionalValueType(chk, et, e) : et);
    });
    return chk.registry.getListType(t as CheckedType);
  });
  m.evaluate = (ev: Runner, _ast: unknown, ctx: unknown) => {
    const out: unknown[] = [];
    elems.forEach((e, i) => {
      const v = ev.run(e, ctx);
      if (!flags[i]) out.push(v);
      else {
        const p = present(v);
        if (p.has) out.push(p.value);
      }
    });
    return out;
  };
}

/** `{?k: v}`: `v` is `optional<V>`; the entry is included when it has a value. */
export function optionalMap(node: EngineNode, flags: boolean[]): void {
  const entries = node.args as [EngineNode, EngineNode][];
  const m = node as MetaNode;
  m.setMeta('check', (chk: Checker, _ast: unknown, ctx: unknown) => {
    let kt: CheckedType | undefined;
    let vt: CheckedType | undefined;
    entries.forEach(([k, v], i) => {
      kt = unify(chk, kt, chk.check(k, ctx));
      const t = chk.check(v, ctx);
      vt = unify(chk, vt, flags[i] ? optionalValueType(chk, t, v) : t);
    });
    return chk.registry.getMapType(kt as CheckedType, vt as CheckedType);
  });
  m.evaluate = (ev: Runner, _ast: unknown, ctx: unknown) => {
    const out = new Map<unknown, unknown>();
    entries.forEach(([k, v], i) => {
      const key = ev.run(k, ctx);
      const value = ev.run(v, ctx);
      if (!flags[i]) out.set(key, value);
      else {
        const p = present(value);
        if (p.has) out.set(key, p.value);
      }
    });
    return [...out.keys()].every((x) => typeof x === 'string') ? Object.fromEntries(out) : out;
  };
}
