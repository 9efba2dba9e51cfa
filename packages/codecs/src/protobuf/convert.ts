/**
 * Conversion between the JSON form of an object (what the rest of Orchard handles) and the
 * plain-object form protobufjs encodes and decodes, driven by the message reflection. The
 * apimachinery messages with a JSON form of their own (`Time`, `MicroTime`, `FieldsV1`,
 * `RawExtension`, `IntOrString`, `Quantity`, `ExtraValue`) are converted here, once.
 */
import type { Field, Type } from 'protobufjs';
import { inlineFields, keepZeroFields } from './presence.js';
import {
  formatRfc3339,
  fromBase64,
  int64ToNumber,
  parseRfc3339,
  toBase64,
  utf8Decode,
  utf8Encode,
} from './wire-values.js';

/** A value at `path` does not fit its message field. Callers turn it into their CodecError. */
export class ConversionError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path || '<root>'}: ${message}`);
    this.name = 'ConversionError';
  }
}

const META = '.k8s.io.apimachinery.pkg.apis.meta.v1.';
const TIME = `${META}Time`;
const MICRO_TIME = `${META}MicroTime`;
const FIELDS_V1 = `${META}FieldsV1`;
const RAW_EXTENSION = '.k8s.io.apimachinery.pkg.runtime.RawExtension';
const INT_OR_STRING = '.k8s.io.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = '.k8s.io.apimachinery.pkg.api.resource.Quantity';

type Plain = Record<string, unknown>;

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the range RFC 3339 (and Go's time) can print. */
const MIN_SECONDS = -62135596800;
const MAX_SECONDS = 253402300799;

const has = (o: object, k: string): boolean => Object.hasOwn(o, k);

function isPlainObject(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isExtraValue(type: Type): boolean {
  return type.name === 'ExtraValue';
}

// ---------------------------------------------------------------- JSON form → message

/** Converts a JSON-form object into the plain message object of `type`. Unknown JSON fields are dropped. */
export function jsonToMessage(type: Type, json: unknown, path = ''): Plain {
  if (!isPlainObject(json)) throw new ConversionError(path, `expected an object for ${type.name}`);
  const out: Plain = {};
  for (const field of type.fieldsArray) {
    if (inlineFields.has(`${type.name}.${field.name}`)) {
      // The embedded struct's fields are the parent's own JSON fields.
      out[field.name] = jsonToMessage(field.resolvedType as Type, json, path);
      continue;
    }
    const v = json[field.name];
    if (v === undefined || v === null) continue;
    const p = path ? `${path}.${field.name}` : field.name;
    if (field.map) {
      if (!isPlainObject(v)) throw new ConversionError(p, 'expected a map');
      const m: Plain = {};
      for (const [k, item] of Object.entries(v)) {
        if (item === null || item === undefined) continue;
        m[k] = valueToMessage(field, item, `${p}[${k}]`);
      }
      out[field.name] = m;
    } else if (field.repeated) {
      if (!Array.isArray(v)) throw new ConversionError(p, 'expected a list');
      out[field.name] = v.map((item, i) => valueToMessage(field, item, `${p}[${i}]`));
    } else {
      out[field.name] = valueToMessage(field, v, p);
    }
  }
  return out;
}

function valueToMessage(field: Field, v: unknown, path: string): unknown {
  const rt = field.resolvedType;
  if (rt && 'fieldsArray' in rt) return specialToMessage(rt as Type, v, path);
  if (rt) throw new ConversionError(path, 'enums are not used by the API messages');
  return scalarToMessage(field.type, v, path);
}

function specialToMessage(type: Type, v: unknown, path: string): unknown {
  switch (type.fullName) {
    case TIME:
    case MICRO_TIME: {
      if (typeof v !== 'string') throw new ConversionError(path, 'expected an RFC 3339 timestamp string');
      const t = parseRfc3339(v);
      if (!t) throw new ConversionError(path, `invalid RFC 3339 timestamp ${JSON.stringify(v)}`);
      return type.fullName === TIME ? { seconds: t.seconds, nanos: 0 } : t;
    }
    case FIELDS_V1:
      return { Raw: utf8Encode(JSON.stringify(v)) };
    case RAW_EXTENSION:
      return { raw: utf8Encode(JSON.stringify(v)) };
    case INT_OR_STRING:
      if (typeof v === 'number' && Number.isInteger(v)) return { type: 0, intVal: v };
      if (typeof v === 'string') return { type: 1, strVal: v };
      throw new ConversionError(path, 'expected an integer or a string');
    case QUANTITY:
      if (typeof v === 'string') return { string: v };
      if (typeof v === 'number' && Number.isFinite(v)) return { string: String(v) };
      throw new ConversionError(path, 'expected a quantity string');
    default:
      if (isExtraValue(type)) {
        if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
          throw new ConversionError(path, 'expected a list of strings');
        return { items: v };
      }
      return jsonToMessage(type, v, path);
  }
}

function scalarToMessage(scalar: string, v: unknown, path: string): unknown {
  switch (scalar) {
    case 'string':
      if (typeof v !== 'string') throw new ConversionError(path, 'expected a string');
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw new ConversionError(path, 'expected a boolean');
      return v;
    case 'bytes': {
      if (typeof v !== 'string') throw new ConversionError(path, 'expected a base64 string');
      const b = fromBase64(v);
      if (!b) throw new ConversionError(path, 'invalid base64');
      return b;
    }
    case 'double':
    case 'float':
      if (typeof v !== 'number') throw new ConversionError(path, 'expected a number');
      return v;
    default:
      if (typeof v !== 'number' || !Number.isInteger(v))
        throw new ConversionError(path, 'expected an integer');
      return v;
  }
}

// ---------------------------------------------------------------- message → JSON form

/**
 * Converts a decoded message into its JSON form. Empty lists and maps are omitted (upstream's
 * `omitempty`); scalars present on the wire are kept, zero or not.
 */
export function messageToJson(type: Type, msg: Plain, path = ''): Plain {
  const out: Plain = {};
  for (const field of type.fieldsArray) {
    if (!has(msg, field.name)) continue;
    const v = msg[field.name];
    if (v === undefined || v === null) continue;
    const p = path ? `${path}.${field.name}` : field.name;
    if (inlineFields.has(`${type.name}.${field.name}`)) {
      Object.assign(out, messageToJson(field.resolvedType as Type, v as Plain, path));
      continue;
    }
    if (field.map) {
      const entries = Object.entries(v as Plain);
      if (entries.length === 0) continue;
      const m: Plain = {};
      for (const [k, item] of entries) m[k] = valueToJson(field, item, `${p}[${k}]`);
      out[field.name] = m;
    } else if (field.repeated) {
      const list = v as unknown[];
      if (list.length === 0) continue;
      out[field.name] = list.map((item, i) => valueToJson(field, item, `${p}[${i}]`));
    } else {
      if (!field.resolvedType && isZero(v) && !keepZeroFields.has(`${type.name}.${field.name}`)) continue;
      const j = valueToJson(field, v, p);
      if (j !== undefined) out[field.name] = j;
    }
  }
  return out;
}

function isZero(v: unknown): boolean {
  if (v === '' || v === 0 || v === false) return true;
  if (v instanceof Uint8Array) return v.length === 0;
  if (typeof v === 'object' && v !== null && 'low' in v && 'high' in v)
    return (v as { low: number }).low === 0 && (v as { high: number }).high === 0;
  return false;
}

function valueToJson(field: Field, v: unknown, path: string): unknown {
  const rt = field.resolvedType;
  if (rt && 'fieldsArray' in rt) return specialToJson(rt as Type, v as Plain, path);
  switch (field.type) {
    case 'bytes':
      return toBase64(v as Uint8Array);
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return int64ToNumber(v);
    default:
      return v;
  }
}

function parseJsonBytes(raw: Uint8Array | undefined, path: string): unknown {
  if (!raw || raw.length === 0) return {};
  try {
    return JSON.parse(utf8Decode(raw));
  } catch {
    throw new ConversionError(path, 'raw bytes are not a JSON document');
  }
}

function specialToJson(type: Type, msg: Plain, path: string): unknown {
  switch (type.fullName) {
    case TIME:
    case MICRO_TIME: {
      // An empty message is Go's zero time, which upstream prints as null: omit it.
      if (!has(msg, 'seconds') && !has(msg, 'nanos')) return undefined;
      const seconds = has(msg, 'seconds') ? int64ToNumber(msg.seconds) : 0;
      const nanos = has(msg, 'nanos') ? (msg.nanos as number) : 0;
      if (
        !Number.isFinite(seconds) ||
        seconds < MIN_SECONDS ||
        seconds > MAX_SECONDS ||
        nanos < 0 ||
        nanos > 999_999_999
      )
        throw new ConversionError(path, 'timestamp out of range');
      if (seconds === MIN_SECONDS && nanos === 0) return undefined;
      return formatRfc3339(seconds, nanos, type.fullName === MICRO_TIME);
    }
    case FIELDS_V1:
      return parseJsonBytes(msg.Raw as Uint8Array | undefined, path);
    case RAW_EXTENSION:
      return parseJsonBytes(msg.raw as Uint8Array | undefined, path);
    case INT_OR_STRING:
      return int64ToNumber(msg.type ?? 0) === 1
        ? ((msg.strVal as string | undefined) ?? '')
        : ((msg.intVal as number | undefined) ?? 0);
    case QUANTITY:
      return (msg.string as string | undefined) ?? '0';
    default:
      if (isExtraValue(type)) return has(msg, 'items') ? [...(msg.items as string[])] : [];
      return messageToJson(type, msg, path);
  }
}
