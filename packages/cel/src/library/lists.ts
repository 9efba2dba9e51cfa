/**
 * The Kubernetes lists library: `indexOf`, `lastIndexOf`, `min`, `max`, `sum` (int, uint, double,
 * duration), `isSorted`. Each costs one unit per element it traverses.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celEquals } from '../list-semantics.js';
import { chargeCost } from '../patches/cost-hook.js';
import { compareValues, evalError, typeName } from './values.js';

function extreme(list: unknown[], sign: 1 | -1, name: string): unknown {
  if (list.length === 0) throw evalError(`${name} called on empty list`);
  let best = list[0];
  for (let i = 1; i < list.length; i++) if (compareValues(list[i], best) * sign > 0) best = list[i];
  return best;
}

const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);

function sum(list: unknown[]): unknown {
  if (list.length === 0) return 0n;
  const first = list[0];
  if (typeof first === 'bigint') {
    let s = 0n;
    for (const x of list) {
      if (typeof x !== 'bigint')
        throw evalError(`sum: mixed element types int and ${typeName(x)}`, 'no_such_overload');
      s += x;
      if (s > int64Max || s < int64Min) throw evalError('integer overflow', 'numeric_overflow');
    }
    return s;
  }
  if (typeof first === 'number') {
    let s = 0;
    for (const x of list) {
      if (typeof x !== 'number')
        throw evalError(`sum: mixed element types double and ${typeName(x)}`, 'no_such_overload');
      s += x;
    }
    return s;
  }
  if (first instanceof UnsignedInt) {
    let s = 0n;
    for (const x of list) {
      if (!(x instanceof UnsignedInt))
        throw evalError(`sum: mixed element types uint and ${typeName(x)}`, 'no_such_overload');
      s += x.value;
    }
    if (s > 2n ** 64n - 1n) throw evalError('unsigned integer overflow', 'numeric_overflow');
    return new UnsignedInt(s);
  }
  if (first instanceof Duration) {
    let s = 0n;
    for (const x of list) {
      if (!(x instanceof Duration))
        throw evalError(`sum: mixed element types duration and ${typeName(x)}`, 'no_such_overload');
      s += x.seconds * 1_000_000_000n + BigInt(x.nanos);
    }
    const secs = s / 1_000_000_000n;
    return new Duration(secs, Number(s - secs * 1_000_000_000n));
  }
  throw evalError(`no such overload: sum over list of ${typeName(first)}`, 'no_such_overload');
}

export function registerLists(env: Environment): void {
  env.registerFunction('list<A>.indexOf(A): int', function (this: unknown, list: unknown[], v: unknown) {
    for (let i = 0; i < list.length; i++) {
      chargeCost(this, 1);
      if (celEquals(list[i], v)) return BigInt(i);
    }
    return -1n;
  });
  env.registerFunction('list<A>.lastIndexOf(A): int', function (this: unknown, list: unknown[], v: unknown) {
    for (let i = list.length - 1; i >= 0; i--) {
      chargeCost(this, 1);
      if (celEquals(list[i], v)) return BigInt(i);
    }
    return -1n;
  });
  env.registerFunction('list<A>.min(): A', function (this: unknown, list: unknown[]) {
    chargeCost(this, list.length);
    return extreme(list, -1, 'min');
  });
  env.registerFunction('list<A>.max(): A', function (this: unknown, list: unknown[]) {
    chargeCost(this, list.length);
    return extreme(list, 1, 'max');
  });
  env.registerFunction('list<A>.sum(): A', function (this: unknown, list: unknown[]) {
    chargeCost(this, list.length);
    return sum(list);
  });
  env.registerFunction('list<A>.isSorted(): bool', function (this: unknown, list: unknown[]) {
    chargeCost(this, list.length);
    for (let i = 1; i < list.length; i++) if (compareValues(list[i - 1], list[i]) > 0) return false;
    return true;
  });
}
