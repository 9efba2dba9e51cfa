/** Helpers shared by the libraries: engine errors, comparison and zero values of CEL values. */
import { EvaluationError } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { compareTimestamps } from '../timestamps.js';

/** An evaluation error the engine reports with the position of the call. */
export function evalError(message: string, code = 'evaluation_error'): Error {
  return new EvaluationError({ code, message });
}

/** Orders two comparable CEL values; throws when they are not comparable. */
export function compareValues(a: unknown, b: unknown): number {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof UnsignedInt && b instanceof UnsignedInt)
    return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a instanceof Duration && b instanceof Duration) {
    const x = a.seconds * 1_000_000_000n + BigInt(a.nanos);
    const y = b.seconds * 1_000_000_000n + BigInt(b.nanos);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a instanceof Date && b instanceof Date) return compareTimestamps(a, b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++)
      if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    return a.length - b.length;
  }
  throw evalError(`no such overload: cannot compare ${typeName(a)} and ${typeName(b)}`, 'no_such_overload');
}

export function typeName(v: unknown): string {
  if (v === null) return 'null_type';
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      if (Array.isArray(v)) return 'list';
      if (v instanceof Uint8Array) return 'bytes';
      if (v instanceof Duration) return 'google.protobuf.Duration';
      if (v instanceof Date) return 'google.protobuf.Timestamp';
      if (v instanceof UnsignedInt) return 'uint';
      return (v as object).constructor?.name ?? 'map';
  }
}

/** True for the zero value of its type (`0`, `""`, `false`, `[]`, `{}`, `null`, empty bytes, 0s). */
export function isZeroValue(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (v === 0n || v === 0 || v === '' || v === false) return true;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  if (v instanceof Duration) return v.seconds === 0n && v.nanos === 0;
  if (v instanceof Date) return v.getTime() === 0;
  if (v instanceof UnsignedInt) return v.value === 0n;
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    return Object.keys(v).length === 0;
  return false;
}
