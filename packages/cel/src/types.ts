/**
 * Type mapping from structural schemas (doc 2 §2.10 item 4) and the schema-driven converter that
 * turns JSON values into CEL values: integers become int64 (`bigint`), `byte` strings bytes,
 * `date`/`date-time` timestamps, `duration` durations, object property names escaped, and lists
 * with `listType: set|map` marked for set/map semantics.
 */

import { Duration } from '@marcbachmann/cel-js/evaluator';
import { fromBase64, isDurationParseError, parseGoDuration, setOwn, toBase64 } from '@orchard/meta/internal';
import type { StructuralSchema } from '@orchard/schema';
import { escapePropertyName } from './escaping.js';
import { markList } from './list-semantics.js';
import { formatTimestamp, subMillisecondNanos, withFraction } from './timestamps.js';

/** A CEL type in the engine's notation: `int`, `string`, `list<int>`, `map<string, dyn>`, … */
export type CelType = string;

/**
 * The CEL type of a schema. Objects with properties are `map<string, dyn>` at the engine level;
 * their field names are checked statically by the estimator (see cost-estimator.ts).
 */
export function celTypeOf(schema: StructuralSchema | undefined): CelType {
  if (schema === undefined) return 'dyn';
  if (schema.intOrString) return 'dyn';
  switch (schema.type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      switch (schema.format) {
        case 'byte':
          return 'bytes';
        case 'date':
        case 'date-time':
          return 'google.protobuf.Timestamp';
        case 'duration':
          return 'google.protobuf.Duration';
        default:
          return 'string';
      }
    case 'array':
      return `list<${celTypeOf(schema.items)}>`;
    case 'object': {
      const ap = schema.additionalProperties;
      if (typeof ap === 'object' && !schema.properties) return `map<string, ${celTypeOf(ap)}>`;
      return 'map<string, dyn>';
    }
    default:
      return 'dyn';
  }
}

/** Parses a Go duration string (`1h30m`, `-1.5s`, `300ms`) into nanoseconds; undefined when invalid. */
export function parseDurationNanos(s: string): bigint | undefined {
  try {
    return parseGoDuration(s);
  } catch (e) {
    if (isDurationParseError(e)) return undefined;
    throw e;
  }
}

export function durationFromNanos(n: bigint): Duration {
  const seconds = n / 1_000_000_000n;
  return new Duration(seconds, Number(n - seconds * 1_000_000_000n));
}

/** A JSON value with no schema: integral numbers become int64, the rest is kept. */
export function toCelValueUntyped(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCelValueUntyped);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    // setOwn: a `__proto__` key of client data is a key like any other, not the prototype.
    for (const [k, v] of Object.entries(value)) setOwn(out, k, toCelValueUntyped(v));
    return out;
  }
  return value ?? null;
}

/**
 * Converts a JSON value (as decoded from a request) into the CEL value of `schema`. Values that do
 * not match their schema are passed through as untyped values (schema validation reports them).
 */
export function toCelValue(value: unknown, schema: StructuralSchema | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (schema === undefined) return toCelValueUntyped(value);
  if (schema.intOrString) {
    if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
    return value;
  }
  switch (schema.type) {
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
      return value;
    case 'number':
      return value;
    case 'string': {
      if (typeof value !== 'string') return value;
      switch (schema.format) {
        case 'byte':
          return fromBase64(value) ?? value;
        case 'date':
        case 'date-time': {
          const d = new Date(
            schema.format === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value,
          );
          return Number.isNaN(d.getTime()) ? value : withFraction(d, value);
        }
        case 'duration': {
          const n = parseDurationNanos(value);
          return n === undefined ? value : durationFromNanos(n);
        }
        default:
          return value;
      }
    }
    case 'array': {
      if (!Array.isArray(value)) return toCelValueUntyped(value);
      const out = value.map((v) => toCelValue(v, schema.items));
      if (schema.listType === 'set') return markList(out, { type: 'set' });
      if (schema.listType === 'map')
        return markList(out, {
          type: 'map',
          keys: (schema.listMapKeys ?? []).map((k) => escapePropertyName(k) ?? k),
        });
      return out;
    }
    case 'object':
    case undefined: {
      if (typeof value !== 'object' || Array.isArray(value)) return toCelValueUntyped(value);
      const out: Record<string, unknown> = {};
      const props = schema.properties;
      const ap = schema.additionalProperties;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        // Own keys only: `constructor` or `__proto__` in client data names no schema.
        const ps = props !== undefined && Object.hasOwn(props, k) ? props[k] : undefined;
        if (ps !== undefined) {
          const name = escapePropertyName(k);
          if (name !== undefined) setOwn(out, name, toCelValue(v, ps));
        } else if (typeof ap === 'object') setOwn(out, k, toCelValue(v, ap));
        else if (ap === true || schema.preserveUnknownFields || props === undefined) {
          if (props === undefined) setOwn(out, k, toCelValueUntyped(v));
          else {
            const name = escapePropertyName(k);
            if (name !== undefined) setOwn(out, name, toCelValueUntyped(v));
          }
        }
      }
      return out;
    }
    default:
      return value;
  }
}

/** Converts a CEL value back to JSON (int64 → number when safe, else string; bytes → base64). */
export function fromCelValue(value: unknown): unknown {
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return toBase64(value);
  if (value instanceof Date)
    return subMillisecondNanos(value) === 0 ? value.toISOString() : formatTimestamp(value);
  if (value instanceof Duration) return value.toString();
  if (Array.isArray(value)) return value.map(fromCelValue);
  if (value instanceof Map)
    return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), fromCelValue(v)]));
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromCelValue(v)]));
  }
  return value;
}

/** What `registerSchemaTypes` needs of an engine environment. */
interface TypeRegistrar {
  registerType(name: string, definition: { fields: Record<string, string> }): unknown;
  registerOperator(signature: string, handler: (a: unknown, b: unknown) => unknown): unknown;
}

/**
 * Registers object types for `schema` on a checking-only environment, so that field types are
 * checked at compile time (`self.replicas + "a"` is a type error): an object with properties
 * becomes a message type whose fields are the escaped property names. Returns the CEL type.
 */
export function registerSchemaTypes(
  engine: TypeRegistrar,
  schema: StructuralSchema | undefined,
  next: () => string,
  seen: Map<StructuralSchema, CelType> = new Map(),
): CelType {
  if (schema === undefined || schema.intOrString) return 'dyn';
  const known = seen.get(schema);
  if (known !== undefined) return known;
  const t = schemaType(engine, schema, next, seen);
  seen.set(schema, t);
  return t;
}

function schemaType(
  engine: TypeRegistrar,
  schema: StructuralSchema,
  next: () => string,
  seen: Map<StructuralSchema, CelType>,
): CelType {
  switch (schema.type) {
    case 'array':
      return `list<${registerSchemaTypes(engine, schema.items, next, seen)}>`;
    case 'object':
    case undefined: {
      const props = schema.properties;
      if (props === undefined || schema.preserveUnknownFields || schema.additionalProperties !== undefined) {
        if (typeof schema.additionalProperties === 'object' && props === undefined) {
          return `map<string, ${registerSchemaTypes(engine, schema.additionalProperties, next, seen)}>`;
        }
        return schema.type === undefined && props === undefined ? 'dyn' : 'map<string, dyn>';
      }
      const fields: Record<string, string> = {};
      for (const [name, ps] of Object.entries(props)) {
        const ident = escapePropertyName(name);
        if (ident !== undefined) fields[ident] = registerSchemaTypes(engine, ps, next, seen);
      }
      const typeName = next();
      engine.registerType(typeName, { fields });
      // checking only: evaluation runs on plain objects, where celEquals decides
      engine.registerOperator(`${typeName} == ${typeName}`, () => false);
      return typeName;
    }
    default:
      return celTypeOf(schema);
  }
}
