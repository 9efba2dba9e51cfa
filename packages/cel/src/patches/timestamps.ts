/**
 * Patch `timestamps`: the engine's timestamps are `Date`s (milliseconds) without range checks.
 * `timestamp(string)` drops the digits below the millisecond, `±` durations, the difference of two
 * timestamps, comparisons and equality work on milliseconds, and `timestamp('0001-01-01T00:00:00Z')
 * - duration('1s')` is year 0; cel-go keeps nanoseconds and fails outside 0001-01-01 … 9999-12-31
 * (durations: int64 nanoseconds). The nanoseconds ride on the `Date` (`../timestamps.ts`). Relies
 * on: `timestamp(…)`/`duration(…)` are `call` nodes with `handle(args, ast, ev)`; `+ - == != < <=
 * > >=` have `handle(l, r, ast, ev)`; durations are the engine's `Duration` (`seconds`, `nanos`).
 */
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { evalError } from '../library/values.js';
import {
  compareTimestamps,
  durationFromNanos,
  durationNanos,
  timestampFromNanos,
  timestampNanos,
  withFraction,
} from '../timestamps.js';
import { type AstPatch, callName, wrapHandle } from './engine-ast.js';

const minTimestampMs = -62135596800000; // 0001-01-01T00:00:00Z
const maxTimestampMs = 253402300799999; // 9999-12-31T23:59:59.999Z
/** cel-go durations are int64 nanoseconds (about ±292 years). */
const maxDurationNanos = 2n ** 63n - 1n;

function checkRange(v: unknown): unknown {
  if (v instanceof Date) {
    const t = v.getTime();
    if (!(t >= minTimestampMs && t <= maxTimestampMs))
      throw evalError('timestamp out of range', 'range_error');
  } else if (v instanceof Duration) {
    const ns = durationNanos(v);
    if (ns > maxDurationNanos || ns < -maxDurationNanos)
      throw evalError('duration out of range', 'range_error');
  }
  return v;
}

const compare: Record<string, (c: number) => boolean> = {
  '==': (c) => c === 0,
  '!=': (c) => c !== 0,
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
};

export const timestampsPatch: AstPatch = {
  name: 'timestamps',
  ops: ['call', ...Object.keys(compare), '+', '-'],
  apply(node) {
    const op = node.op;
    if (op === 'call' && callName(node) === 'duration')
      wrapHandle(node, (inner) => (args, ast, ev) => checkRange(inner(args, ast, ev)));
    else if (op === 'call' && callName(node) === 'timestamp')
      wrapHandle(node, (inner) => (args, ast, ev) => {
        const v = inner(args, ast, ev);
        const text = (args as unknown[])[0];
        return checkRange(typeof text === 'string' && v instanceof Date ? withFraction(v, text) : v);
      });
    else if (Object.hasOwn(compare, op)) {
      const test = compare[op] as (c: number) => boolean;
      wrapHandle(
        node,
        (inner) => (l, r, ast, ev) =>
          l instanceof Date && r instanceof Date ? test(compareTimestamps(l, r)) : inner(l, r, ast, ev),
      );
    } else if (op === '+')
      wrapHandle(node, (inner) => (l, r, ast, ev) => {
        if (l instanceof Date && r instanceof Duration)
          return checkRange(timestampFromNanos(timestampNanos(l) + durationNanos(r)));
        if (l instanceof Duration && r instanceof Date)
          return checkRange(timestampFromNanos(timestampNanos(r) + durationNanos(l)));
        return checkRange(inner(l, r, ast, ev));
      });
    else if (op === '-')
      wrapHandle(node, (inner) => (l, r, ast, ev) => {
        if (l instanceof Date && r instanceof Duration)
          return checkRange(timestampFromNanos(timestampNanos(l) - durationNanos(r)));
        if (l instanceof Date && r instanceof Date)
          return checkRange(durationFromNanos(timestampNanos(l) - timestampNanos(r)));
        return checkRange(inner(l, r, ast, ev));
      });
  },
};
