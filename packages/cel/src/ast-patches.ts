/**
 * Rewiring of checked AST nodes, our layer over the engine (each item is an upstream-fix
 * candidate listed in the README):
 * - `string.matches` runs on RE2 (linear time) instead of JavaScript RegExp;
 * - `==`, `!=`, `+` honour set/map list semantics (list-semantics.ts);
 * - int64/uint64 range checks on `int(double)`, `uint(double)` and unary minus;
 * - timestamp (0001-01-01 … 9999-12-31) and duration (±10,000 years) range checks;
 * - `string(bytes)` rejects invalid UTF-8; `in` and list indexing across int/uint/double;
 * - fixed-offset time zones (`+02:00`) on the timestamp accessors;
 * - map literals with double or null keys, or duplicate constant keys, are rejected.
 */
import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { type EngineNode, walkAst } from './engine.js';
import { CelError, positionOf } from './errors.js';
import { regexMatches } from './library/regex.js';
import { evalError } from './library/values.js';
import { celEquals, concatMarked, listSemantics } from './list-semantics.js';
import {
  compareTimestamps,
  durationFromNanos,
  durationNanos,
  timestampFromNanos,
  timestampNanos,
  withFraction,
} from './timestamps.js';

type Handle = (...a: unknown[]) => unknown;

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;
const MIN_TIMESTAMP_MS = -62135596800000; // 0001-01-01T00:00:00Z
const MAX_TIMESTAMP_MS = 253402300799999; // 9999-12-31T23:59:59.999Z
/** cel-go durations are int64 nanoseconds (about ±292 years). */
const MAX_DURATION_NANOS = 2n ** 63n - 1n;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function checkRange(v: unknown): unknown {
  if (v instanceof Date) {
    const t = v.getTime();
    if (!(t >= MIN_TIMESTAMP_MS && t <= MAX_TIMESTAMP_MS))
      throw evalError('timestamp out of range', 'range_error');
  } else if (v instanceof Duration) {
    const ns = v.seconds * 1_000_000_000n + BigInt(v.nanos);
    if (ns > MAX_DURATION_NANOS || ns < -MAX_DURATION_NANOS)
      throw evalError('duration out of range', 'range_error');
  }
  return v;
}

const isAggregate = (v: unknown) =>
  Array.isArray(v) ||
  v instanceof Map ||
  (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype);
const numeric = (v: unknown) => typeof v === 'bigint' || typeof v === 'number' || v instanceof UnsignedInt;
const OFFSET = /^([+-])?(\d{2}):(\d{2})$/;
const TZ_METHODS = new Set([
  'getDate',
  'getDayOfMonth',
  'getDayOfWeek',
  'getDayOfYear',
  'getFullYear',
  'getHours',
  'getMilliseconds',
  'getMinutes',
  'getMonth',
  'getSeconds',
]);

function patchCall(n: EngineNode, inner: Handle): Handle | undefined {
  const name = (n.args as [string])[0];
  switch (name) {
    case 'int':
      return (args, ast, ev) => {
        const x = (args as unknown[])[0];
        if (typeof x === 'number' && !(x < TWO_63 && x > -TWO_63))
          throw evalError('integer overflow', 'numeric_overflow');
        return inner(args, ast, ev);
      };
    case 'uint':
      return (args, ast, ev) => {
        const x = (args as unknown[])[0];
        if (typeof x === 'number' && !(x > -1 && x < TWO_64))
          throw evalError('unsigned integer overflow', 'numeric_overflow');
        return inner(args, ast, ev);
      };
    case 'string':
      return (args, ast, ev) => {
        const x = (args as unknown[])[0];
        if (x instanceof Uint8Array) {
          try {
            return utf8.decode(x);
          } catch {
            throw evalError('invalid UTF-8 in bytes, cannot convert to string', 'invalid_argument');
          }
        }
        return inner(args, ast, ev);
      };
    case 'duration':
      return (args, ast, ev) => checkRange(inner(args, ast, ev));
    case 'timestamp':
      return (args, ast, ev) => {
        const v = inner(args, ast, ev);
        const text = (args as unknown[])[0];
        return checkRange(typeof text === 'string' && v instanceof Date ? withFraction(v, text) : v);
      };
    default:
      return undefined;
  }
}

function patchRcall(n: EngineNode, inner: Handle): Handle | undefined {
  const name = (n.args as [string])[0];
  if (name === 'matches')
    return (args, ev) =>
      regexMatches.call(ev, (args as string[])[0] as string, (args as string[])[1] as string);
  if (TZ_METHODS.has(name)) {
    return (args, ev, ast) => {
      const a = args as unknown[];
      // a duration's milliseconds are those of its second, as in cel-go (123.321s → 321)
      if (name === 'getMilliseconds' && a[0] instanceof Duration)
        return ((durationNanos(a[0]) / 1_000_000n) % 1000n) as unknown;
      const tz = a[1];
      const m = typeof tz === 'string' ? OFFSET.exec(tz) : null;
      if (m && a[0] instanceof Date) {
        const minutes = (Number(m[2]) * 60 + Number(m[3])) * (m[1] === '-' ? -1 : 1);
        return inner([new Date(a[0].getTime() + minutes * 60_000), 'UTC'], ev, ast);
      }
      return inner(args, ev, ast);
    };
  }
  return undefined;
}

function patchBinary(n: EngineNode, inner: Handle): Handle | undefined {
  switch (n.op) {
    case '==':
    case '!=': {
      const eq = n.op === '==';
      return (l, r, ast, ev) => {
        // lists and maps: CEL equality at any depth (int/uint/double compare numerically; set/map lists)
        if (isAggregate(l) && isAggregate(r)) return celEquals(l, r) === eq;
        if (l instanceof Date && r instanceof Date) return (compareTimestamps(l, r) === 0) === eq;
        return inner(l, r, ast, ev);
      };
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const op = n.op;
      return (l, r, ast, ev) => {
        // int against double compares as doubles, as cel-go does
        if (
          (typeof l === 'bigint' && typeof r === 'number') ||
          (typeof l === 'number' && typeof r === 'bigint')
        ) {
          const x = Number(l);
          const y = Number(r);
          return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
        }
        if (l instanceof Date && r instanceof Date) {
          const c = compareTimestamps(l, r);
          return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
        }
        return inner(l, r, ast, ev);
      };
    }
    case '*':
    case '/':
      return (l, r, ast, ev) => {
        const v = inner(l, r, ast, ev);
        if (typeof v === 'bigint' && (v > INT64_MAX || v < INT64_MIN))
          throw evalError('integer overflow', 'numeric_overflow');
        return v;
      };
    case '+':
      return (l, r, ast, ev) => {
        if (Array.isArray(l) && Array.isArray(r) && (listSemantics(l) || listSemantics(r)))
          return concatMarked(l, r);
        // timestamps ± durations at nanosecond precision
        if (l instanceof Date && r instanceof Duration)
          return checkRange(timestampFromNanos(timestampNanos(l) + durationNanos(r)));
        if (l instanceof Duration && r instanceof Date)
          return checkRange(timestampFromNanos(timestampNanos(r) + durationNanos(l)));
        return checkRange(inner(l, r, ast, ev));
      };
    case '-':
      return (l, r, ast, ev) => {
        if (l instanceof Date && r instanceof Duration)
          return checkRange(timestampFromNanos(timestampNanos(l) - durationNanos(r)));
        if (l instanceof Date && r instanceof Date)
          return checkRange(durationFromNanos(timestampNanos(l) - timestampNanos(r)));
        return checkRange(inner(l, r, ast, ev));
      };
    case 'in':
      return (l, r, ast, ev) => {
        if (Array.isArray(r) && numeric(l)) return r.some((x) => celEquals(l, x));
        if (r instanceof Map) return r.has(mapKey(r, l));
        return inner(l, r, ast, ev);
      };
    case '[]':
      return (l, r, ast, ev) =>
        inner(
          l,
          Array.isArray(l) && r instanceof UnsignedInt ? r.value : l instanceof Map ? mapKey(l, r) : r,
          ast,
          ev,
        );
    case '.': {
      // a field of a present optional whose value is not a map or object is an error, not none
      const kind = ((n.args as [EngineNode])[0].checkedType as { kind?: string } | undefined)?.kind;
      if (kind !== 'optional' && kind !== 'dyn') return undefined;
      return (l, r, ast, ev) => {
        if (l instanceof Optional && l.hasValue() && !selectable(l.value()))
          throw evalError(`No such key: ${String(r)}`, 'no_such_key');
        return inner(l, r, ast, ev);
      };
    }
    case '[?]':
      return (l, r, ast, ev) => inner(l, l instanceof Map ? mapKey(l, r) : r, ast, ev);
    default:
      return undefined;
  }
}

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

/** A value fields can be selected from: a map or an object (not a scalar, list, bytes, …). */
function selectable(v: unknown): boolean {
  return (
    v instanceof Map ||
    (typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      !(v instanceof Uint8Array) &&
      !(v instanceof Date) &&
      !(v instanceof Duration) &&
      !(v instanceof UnsignedInt))
  );
}

/** The key of `m` equal to `k` under CEL equality (`1`, `1u` and `1.0` are one key). */
function mapKey(m: Map<unknown, unknown>, k: unknown): unknown {
  if (m.has(k) || !numeric(k)) return k;
  for (const x of m.keys()) if (numeric(x) && celEquals(x, k)) return x;
  return k;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A map literal: a plain object when every key is a string (the engine's representation), else a
 * `Map` keyed by the CEL values (`{1: 'a'}` keeps the int key). A key repeated at runtime fails.
 */
function evaluateMapLiteral(this: EngineNode, ev: unknown, ast: unknown, ctx: unknown): unknown {
  const run = (ev as { run(n: EngineNode, c: unknown): unknown }).run.bind(ev);
  const entries: [unknown, unknown][] = [];
  let strings = true;
  for (const [k, v] of this.args as [EngineNode, EngineNode][]) {
    const key = run(k, ctx);
    if (typeof key !== 'string') strings = false;
    entries.push([key, run(v, ctx)]);
  }
  void ast;
  if (strings) {
    const obj: Record<string, unknown> = {};
    for (const [k, v] of entries as [string, unknown][]) {
      if (UNSAFE_KEYS.has(k)) continue;
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

/** Applies every patch to a checked AST (before the first evaluation). */
export function patchAst(root: EngineNode, source: string, options: { unchecked?: boolean } = {}): void {
  walkAst(root, (n) => {
    if (n.op === 'map') {
      checkMapLiteral(n, source, options.unchecked === true);
      // the engine builds a plain object, so int/uint/bool keys would become strings
      if ((n.args as unknown[]).length > 0 && !Object.hasOwn(n, 'evaluate')) n.evaluate = evaluateMapLiteral;
      return;
    }
    const inner = n.handle as Handle | undefined;
    if (typeof inner !== 'function') return;
    let patched: Handle | undefined;
    if (n.op === 'call') patched = patchCall(n, inner);
    else if (n.op === 'rcall') patched = patchRcall(n, inner);
    else if (n.op === '-_')
      patched = (v, ast, ev) => {
        const r = inner(v, ast, ev);
        if (typeof r === 'bigint' && (r > INT64_MAX || r < INT64_MIN))
          throw evalError('integer overflow', 'numeric_overflow');
        return r;
      };
    else patched = patchBinary(n, inner);
    if (patched !== undefined) n.handle = patched as EngineNode['handle'];
  });
}

type Any = any;

function idRooted(node: EngineNode): boolean {
  let n = node;
  while (n.op === '.' || n.op === '.?') {
    if (n.meta?.alternate !== undefined) return false; // a resolved qualified name
    n = (n.args as [EngineNode])[0];
  }
  return n.op === 'id' && n.meta?.alternate === undefined;
}

/** `has(e.f)` where `e` is any expression (the engine's macro only accepts a variable at the root). */
const hasOnExpression = {
  typeCheck(chk: Any, macro: Any, ctx: Any) {
    const sel = macro.args[0] as EngineNode;
    if (sel.op !== '.' && sel.op !== '.?')
      throw chk.createError('invalid_macro_argument', 'has() invalid argument', sel);
    chk.check((sel.args as [EngineNode])[0], ctx);
    return chk.getType('bool');
  },
  evaluate(ev: Any, macro: Any, ctx: Any) {
    const sel = macro.args[0] as EngineNode;
    const [operand, field] = sel.args as [EngineNode, string];
    let obj = ev.run(operand, ctx);
    if (
      obj !== null &&
      typeof obj === 'object' &&
      typeof obj.hasValue === 'function' &&
      typeof obj.orValue === 'function'
    ) {
      if (!obj.hasValue()) return false;
      obj = obj.value();
    }
    if (obj instanceof Map) return obj.has(field);
    if (obj !== null && typeof obj === 'object' && !Array.isArray(obj)) return Object.hasOwn(obj, field);
    throw evalError(
      `has() not supported on ${obj === null ? 'null' : Array.isArray(obj) ? 'list' : typeof obj}`,
      'no_such_field',
    );
  },
};

/** Patches applied after parsing, before type-checking. */
export function patchParsed(root: EngineNode): void {
  walkAst(root, (n) => {
    if (n.op !== 'call' || (n.args as [string])[0] !== 'has') return;
    const macro = n.meta?.macro as Record<string, unknown> | undefined;
    const arg = (macro?.args as EngineNode[] | undefined)?.[0];
    if (macro === undefined || arg === undefined || idRooted(arg)) return;
    macro.typeCheck = hasOnExpression.typeCheck;
    macro.evaluate = hasOnExpression.evaluate;
  });
}
