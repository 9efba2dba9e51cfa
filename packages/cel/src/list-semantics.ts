/**
 * Set and map semantics of lists (doc 2 §2.10 item 4): a list with `listType: set` or `map`
 * compares equal regardless of order, and `+` is a union (set) or a merge by key (map).
 *
 * Such lists stay plain arrays (so every list function works on them) carrying a hidden mark;
 * `==`, `!=` and `+` consult the mark (see compile.ts).
 */

import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { isQuantity } from '@orchard/meta';
import { compareTimestamps } from './timestamps.js';

export const listTypeSymbol = Symbol('orchard.cel.listType');

/**
 * How a list compares and concatenates in CEL: as a set (order-insensitive equality, `+` is a union) or as a
 * map keyed by the fields in `keys` (order-insensitive equality, `+` merges by key).
 */
export type ListSemantics = { type: 'set' } | { type: 'map'; keys: readonly string[] };

type Marked = unknown[] & { [listTypeSymbol]?: ListSemantics };

/** Marks `list` with set or map semantics (returns the same array). */
export function markList<T extends unknown[]>(list: T, semantics: ListSemantics): T {
  Object.defineProperty(list, listTypeSymbol, { value: semantics, enumerable: false, configurable: true });
  return list;
}

/**
 * The set or map semantics `markList` gave the array `v`, or `undefined` for an unmarked array or any value
 * that is not an array; reads only, never throws.
 */
export function listSemantics(v: unknown): ListSemantics | undefined {
  return Array.isArray(v) ? (v as Marked)[listTypeSymbol] : undefined;
}

/** True when `v` holds a marked list anywhere inside it. */
export function containsMarked(v: unknown, depth = 0): boolean {
  if (depth > 64 || typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    if ((v as Marked)[listTypeSymbol] !== undefined) return true;
    for (const x of v) if (containsMarked(x, depth + 1)) return true;
    return false;
  }
  if (v instanceof Map) {
    for (const x of v.values()) if (containsMarked(x, depth + 1)) return true;
    return false;
  }
  if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
    for (const k in v) if (containsMarked((v as Record<string, unknown>)[k], depth + 1)) return true;
  }
  return false;
}

function entriesOf(v: object): [unknown, unknown][] {
  if (v instanceof Map) return [...v.entries()];
  return Object.entries(v);
}

/** CEL equality that honours set/map list semantics at any depth. */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && Number.isNaN(a)) return false;
    if (typeof b === 'number' && Number.isNaN(b)) return false;
    // biome-ignore lint/suspicious/noDoubleEquals: CEL compares int and double numerically
    return a == b;
  }
  if (a instanceof UnsignedInt || b instanceof UnsignedInt) {
    const x = a instanceof UnsignedInt ? a.value : a;
    const y = b instanceof UnsignedInt ? b.value : b;
    if (
      !(typeof x === 'bigint' || typeof x === 'number') ||
      !(typeof y === 'bigint' || typeof y === 'number')
    )
      return false;
    // biome-ignore lint/suspicious/noDoubleEquals: uint compares numerically with int and double
    return x == y;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (isQuantity(a) && isQuantity(b)) return a.cmp(b) === 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array)
    return a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof Date && b instanceof Date) return compareTimestamps(a, b) === 0;
  if (a instanceof Duration && b instanceof Duration) return a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof Optional && b instanceof Optional) {
    if (a.hasValue() !== b.hasValue()) return false;
    return !a.hasValue() || celEquals(a.value(), b.value());
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const sem = listSemantics(a) ?? listSemantics(b);
    if (sem?.type === 'set')
      return a.every((x) => b.some((y) => celEquals(x, y))) && b.every((y) => a.some((x) => celEquals(x, y)));
    if (sem?.type === 'map') {
      return a.every((x) => {
        const other = b.find((y) => sameKey(x, y, sem.keys));
        return other !== undefined && celEquals(x, other);
      });
    }
    return a.every((x, i) => celEquals(x, b[i]));
  }
  if (Array.isArray(a) || Array.isArray(b)) return false;
  const ea = entriesOf(a);
  const eb = new Map(entriesOf(b));
  if (ea.length !== eb.size) return false;
  for (const [k, v] of ea) {
    let key: unknown = k;
    if (!eb.has(k)) {
      // numeric keys are one key across int, uint and double (`{1: x} == {1u: x}`)
      key = [...eb.keys()].find((x) => typeof x !== 'string' && typeof k !== 'string' && celEquals(x, k));
      if (key === undefined) return false;
    }
    if (!celEquals(v, eb.get(key))) return false;
  }
  return true;
}

function field(v: unknown, k: string): unknown {
  if (v instanceof Map) return v.get(k);
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;
}

function sameKey(x: unknown, y: unknown, keys: readonly string[]): boolean {
  return keys.every((k) => celEquals(field(x, k), field(y, k)));
}

/** `a + b` for marked lists: union for sets, merge by key for maps (right wins, order of `a` kept). */
export function concatMarked(a: unknown[], b: unknown[]): unknown[] {
  const sem = listSemantics(a) ?? listSemantics(b);
  if (sem === undefined) return [...a, ...b];
  const out = [...a];
  if (sem.type === 'set') {
    for (const y of b) if (!out.some((x) => celEquals(x, y))) out.push(y);
  } else {
    for (const y of b) {
      const i = out.findIndex((x) => sameKey(x, y, sem.keys));
      if (i >= 0) out[i] = y;
      else out.push(y);
    }
  }
  return markList(out, sem);
}
