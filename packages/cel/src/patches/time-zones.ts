/**
 * Patch `time-zones`: the engine passes the time zone of the timestamp accessors
 * (`getHours('+02:00')`, …) to `Intl`, which rejects fixed offsets (`RangeError: Invalid time
 * zone`); cel-go accepts `±HH:MM`. Also: `duration.getMilliseconds()` is the whole duration in
 * milliseconds in the engine (123.321s → 123321), the milliseconds of its second in cel-go (321).
 * Relies on: the accessors are `rcall` nodes named `getHours`, … with `handle(args, ev, ast)`
 * where `args` is `[receiver, timeZone?]`.
 */
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { durationNanos } from '../timestamps.js';
import { type AstPatch, callName, wrapHandle } from './engine-ast.js';

const offset = /^([+-])?(\d{2}):(\d{2})$/;
const accessors = new Set([
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

export const timeZonesPatch: AstPatch = {
  name: 'time-zones',
  ops: ['rcall'],
  apply(node) {
    if (node.op !== 'rcall') return;
    const name = callName(node);
    if (!accessors.has(name)) return;
    wrapHandle(node, (inner) => (args, ev, ast) => {
      const a = args as unknown[];
      if (name === 'getMilliseconds' && a[0] instanceof Duration)
        return (durationNanos(a[0]) / 1_000_000n) % 1000n;
      const tz = a[1];
      const m = typeof tz === 'string' ? offset.exec(tz) : null;
      if (m && a[0] instanceof Date) {
        const minutes = (Number(m[2]) * 60 + Number(m[3])) * (m[1] === '-' ? -1 : 1);
        return inner([new Date(a[0].getTime() + minutes * 60_000), 'UTC'], ev, ast);
      }
      return inner(args, ev, ast);
    });
  },
};
