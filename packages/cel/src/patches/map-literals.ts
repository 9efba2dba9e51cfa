/**
 * Patch `map-literals`: the engine builds every map literal as a plain object, so `{1: 'a'}` has
 * the string key `'1'` (`dyn({1: 'a'}) == dyn({'1': 'a'})` is true), `{1.5: 'a'}` and
 * `{null: 1}` are accepted and a repeated key silently wins; cel-go keeps int/uint/bool keys,
 * rejects double and null keys and repeated keys, and finds a numeric key across int/uint/double
 * (`{1: 'a'}[1u]`). A literal with only string keys stays a plain object (what the engine and
 * the libraries expect), others become a `Map`. Relies on: a map literal is a `map` node whose
 * `args` are `[keyNode, valueNode]` pairs and whose `evaluate(ev, ast, ctx)` may be replaced;
 * constant keys are `value` nodes; `in`, `[]`, `[?]` have `handle(l, r, ast, ev)`.
 */
import { CelError, positionOf } from '../errors.js';
import { evalError } from '../library/values.js';
import { celEquals } from '../list-semantics.js';
import { isAggregate } from './aggregate-equality.js';
import { type AstPatch, type EngineNode, wrapHandle } from './engine-ast.js';
import { isNumeric } from './numeric-comparison.js';

/** Rejects double/null and duplicate constant keys: at compile time, or at evaluation when unchecked. */
function checkMapLiteral(n: EngineNode, source: string, unchecked: boolean): void {
  const keys: unknown[] = [];
  const reject = (k: EngineNode, message: string, code: string): void => {
    if (!unchecked)
      throw new CelError('type-check', message, { position: positionOf(source, k.start, k.end) });
    n.evaluate = () => {
      throw evalError(message, code);
    };
  };
  for (const [k] of n.args as [EngineNode, EngineNode][]) {
    if (k.op !== 'value') continue;
    const v = k.args;
    if (typeof v === 'number' || v === null) {
      reject(k, `unsupported map key type: ${v === null ? 'null' : 'double'}`, 'unsupported_key_type');
      return;
    }
    if (keys.some((x) => celEquals(x, v))) {
      reject(k, `duplicate map key: ${String(v)}`, 'duplicate_key');
      return;
    }
    keys.push(v);
  }
}

/** The key of `m` equal to `k` under CEL equality (`1`, `1u` and `1.0` are one key). */
function mapKey(m: Map<unknown, unknown>, k: unknown): unknown {
  if (m.has(k) || !isNumeric(k)) return k;
  for (const x of m.keys()) if (isNumeric(x) && celEquals(x, k)) return x;
  return k;
}

const unsafeKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** A map literal's value: a plain object when every key is a string, else a `Map`. */
function evaluateMapLiteral(this: EngineNode, ev: unknown, _ast: unknown, ctx: unknown): unknown {
  const run = (ev as { run(n: EngineNode, c: unknown): unknown }).run.bind(ev);
  const entries: [unknown, unknown][] = [];
  let strings = true;
  for (const [k, v] of this.args as [EngineNode, EngineNode][]) {
    const key = run(k, ctx);
    if (typeof key !== 'string') strings = false;
    entries.push([key, run(v, ctx)]);
  }
  if (strings) {
    const obj: Record<string, unknown> = {};
    for (const [k, v] of entries as [string, unknown][]) {
      if (unsafeKeys.has(k)) continue;
      if (Object.hasOwn(obj, k)) throw evalError(`Failed with repeated key: ${k}`, 'duplicate_key');
      obj[k] = v;
    }
    return obj;
  }
  const m = new Map<unknown, unknown>();
  for (const [k, v] of entries) {
    if (typeof k === 'number' || k === null || isAggregate(k))
      throw evalError(`unsupported map key type: ${k === null ? 'null' : typeof k}`, 'unsupported_key_type');
    for (const seen of m.keys())
      if (celEquals(seen, k)) throw evalError(`Failed with repeated key: ${String(k)}`, 'duplicate_key');
    m.set(k, v);
  }
  return m;
}

export const mapLiteralsPatch: AstPatch = {
  name: 'map-literals',
  ops: ['map', 'in', '[]', '[?]'],
  apply(node, { source, unchecked }) {
    if (node.op === 'map') {
      checkMapLiteral(node, source, unchecked);
      if ((node.args as unknown[]).length > 0 && !Object.hasOwn(node, 'evaluate'))
        node.evaluate = evaluateMapLiteral;
    } else if (node.op === 'in')
      wrapHandle(
        node,
        (inner) => (l, r, ast, ev) => (r instanceof Map ? r.has(mapKey(r, l)) : inner(l, r, ast, ev)),
      );
    else if (node.op === '[]' || node.op === '[?]')
      wrapHandle(node, (inner) => (l, r, ast, ev) => inner(l, l instanceof Map ? mapKey(l, r) : r, ast, ev));
  },
};
