/**
 * Decoding: reads a protobufjs `Reader` into the JSON form of an object along its message plan.
 * Every length is checked against the end of its enclosing message and every wire type against
 * the field's type.
 */
import { formatRfc3339Parts, maxNestingDepth, setOwn } from '@orchard/meta/internal';

import type { Reader, Type } from 'protobufjs';
import protobuf from 'protobufjs';
import { ConversionError, fail, truncated } from './conversion-error.js';
import {
  type CallReader,
  type FieldPlan,
  jsonKey,
  type MessagePlan,
  type Plain,
  planOf,
  type WireCall,
} from './wire-plan.js';
import { int64ToNumber, toBase64, utf8Decode } from './wire-values.js';

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the range RFC 3339 (and Go's time) can print. */
const minTimestampSeconds = -62135596800;
const maxTimestampSeconds = 253402300799;

/** Reads a length prefix and returns the end offset of the delimited bytes, within `end`. */
function delimited(r: Reader, end: number): number {
  const len = r.uint32();
  const stop = r.pos + len;
  if (len < 0 || stop > end) truncated();
  return stop;
}

function skip(r: Reader, wireType: number, end: number): void {
  if (wireType === 4) fail('unexpected end-group');
  r.skipType(wireType);
  if (r.pos > end) truncated();
}

/**
 * Decodes the message body between `r.pos` and `end` into its JSON form. Recursive types (CRD
 * JSONSchemaProps) nest at most `maxNestingDepth` levels, the bound of every request body.
 */
function decodeFields(plan: MessagePlan, r: Reader, end: number): Plain {
  const call = (r as CallReader).call;
  if (++call.nesting > maxNestingDepth) fail(`messages nest more than ${maxNestingDepth} levels deep`);
  try {
    return decodeFieldsAt(plan, r, end, call);
  } finally {
    call.nesting--;
  }
}

function decodeFieldsAt(plan: MessagePlan, r: Reader, end: number, call: WireCall): Plain {
  const out: Plain = {};
  while (r.pos < end) {
    const tag = r.uint32();
    const id = tag >>> 3;
    const wt = tag & 7;
    const f = plan.byId[id];
    if (f === undefined || id === 0) {
      if (id === 0) fail('field number 0');
      skip(r, wt, end);
      continue;
    }
    try {
      if (f.map) {
        if (wt !== 2) fail('wrong wire type for a map entry');
        const stop = delimited(r, end);
        let key = '';
        let value: unknown;
        while (r.pos < stop) {
          const t = r.uint32();
          if (t === 10) {
            const s = delimited(r, stop);
            key = readString(r, s);
          } else if (t >>> 3 === 2) value = readValue(f, t & 7, r, stop);
          else skip(r, t & 7, stop);
        }
        if (r.pos !== stop) truncated();
        if (value === undefined) value = zeroOf(f);
        const key2 = jsonKey(f, call);
        let m = out[key2] as Plain | undefined;
        if (!m) m = out[key2] = {};
        setOwn(m, key, value);
      } else if (f.repeated) {
        const key2 = jsonKey(f, call);
        let list = out[key2] as unknown[] | undefined;
        if (!list) list = out[key2] = [];
        if (wt === 2 && f.wireType !== 2) {
          // A packed run of scalars.
          const stop = delimited(r, end);
          while (r.pos < stop) list.push(readValue(f, f.wireType, r, stop));
          if (r.pos !== stop) truncated();
          if (list.length === 0) delete out[key2];
        } else list.push(readValue(f, wt, r, end));
      } else if (f.inline) {
        if (wt !== 2) fail('wrong wire type for an embedded message');
        const stop = delimited(r, end);
        Object.assign(out, decodeFields(f.sub as MessagePlan, r, stop));
      } else {
        const v = readValue(f, wt, r, end);
        const key2 = jsonKey(f, call);
        if (v !== undefined && (f.keepZero || !f.scalar || !isZero(v))) out[key2] = v;
        else if (key2 in out) delete out[key2];
      }
    } catch (e) {
      throw e instanceof ConversionError ? e.under(`.${jsonKey(f, call)}`) : e;
    }
  }
  if (r.pos !== end) truncated();
  return out;
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function zeroOf(f: FieldPlan): unknown {
  switch (f.kind) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    case 'message':
      return {};
    case 'quantity':
      return '0';
    case 'extravalue':
      return [];
    default:
      return f.wireType === 0 || f.wireType === 1 ? 0 : null;
  }
}

function readString(r: Reader, stop: number): string {
  const s = protobuf.util.utf8.read(r.buf, r.pos, stop);
  r.pos = stop;
  return s;
}

function readBytes(r: Reader, stop: number): Uint8Array {
  const b = r.buf.subarray(r.pos, stop);
  r.pos = stop;
  return b;
}

function parseJsonBytes(raw: Uint8Array): unknown {
  if (raw.length === 0) return {};
  try {
    return JSON.parse(utf8Decode(raw));
  } catch {
    return fail('raw bytes are not a JSON document');
  }
}

/** Reads the fields of a small special message, calling `field` for each (id, wire type). */
function readSmall(r: Reader, end: number, field: (id: number, wt: number, stop: number) => boolean): void {
  const stop = delimited(r, end);
  while (r.pos < stop) {
    const t = r.uint32();
    if (!field(t >>> 3, t & 7, stop)) skip(r, t & 7, stop);
  }
  if (r.pos !== stop) truncated();
}

function expectWire(actual: number, expected: number): void {
  if (actual !== expected) fail(`wrong wire type ${actual} (expected ${expected})`);
}

function readValue(f: FieldPlan, wt: number, r: Reader, end: number): unknown {
  expectWire(wt, f.wireType);
  switch (f.kind) {
    case 'string':
      return readString(r, delimited(r, end));
    case 'bytes':
      return toBase64(readBytes(r, delimited(r, end)));
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'uint32':
      return r.uint32();
    case 'int64':
      return int64ToNumber(r.int64());
    case 'uint64':
      return int64ToNumber(r.uint64());
    case 'double':
      return r.double();
    case 'message':
      return decodeFields(f.sub as MessagePlan, r, delimited(r, end));
    case 'time':
    case 'microtime': {
      let seconds: number | undefined;
      let nanos = 0;
      readSmall(r, end, (id, t) => {
        if (id === 1) {
          expectWire(t, 0);
          seconds = int64ToNumber(r.int64());
        } else if (id === 2) {
          expectWire(t, 0);
          nanos = r.int32();
        } else return false;
        return true;
      });
      // An empty message is Go's zero time, which upstream prints as null: omit it.
      if (seconds === undefined && nanos === 0) return undefined;
      const s = seconds ?? 0;
      if (s === minTimestampSeconds && nanos === 0) return undefined;
      if (s < minTimestampSeconds || s > maxTimestampSeconds || nanos < 0 || nanos > 999_999_999)
        fail('timestamp out of range');
      return formatRfc3339Parts({ seconds: s, nanos }, f.kind === 'microtime' ? 'micros' : 'seconds');
    }
    case 'fieldsv1':
    case 'rawext': {
      let raw: Uint8Array = new Uint8Array(0);
      readSmall(r, end, (id, t, stop) => {
        if (id !== 1) return false;
        expectWire(t, 2);
        raw = readBytes(r, delimited(r, stop));
        return true;
      });
      return parseJsonBytes(raw);
    }
    case 'intorstring': {
      let type = 0;
      let intVal = 0;
      let strVal = '';
      readSmall(r, end, (id, t, stop) => {
        if (id === 1) {
          expectWire(t, 0);
          type = int64ToNumber(r.int64());
        } else if (id === 2) {
          expectWire(t, 0);
          intVal = r.int32();
        } else if (id === 3) {
          expectWire(t, 2);
          strVal = readString(r, delimited(r, stop));
        } else return false;
        return true;
      });
      return type === 1 ? strVal : intVal;
    }
    case 'quantity': {
      let s = '0';
      readSmall(r, end, (id, t, stop) => {
        if (id !== 1) return false;
        expectWire(t, 2);
        s = readString(r, delimited(r, stop));
        return true;
      });
      return s;
    }
    case 'propsOrArray': {
      let schema: Plain | undefined;
      const list: Plain[] = [];
      readSmall(r, end, (id, t, stop) => {
        if (id !== 1 && id !== 2) return false;
        expectWire(t, 2);
        const v = decodeFields(f.sub as MessagePlan, r, delimited(r, stop));
        if (id === 1) schema = v;
        else list.push(v);
        return true;
      });
      return schema ?? list;
    }
    case 'propsOrBool': {
      let allows = false;
      let schema: Plain | undefined;
      readSmall(r, end, (id, t, stop) => {
        if (id === 1) {
          expectWire(t, 0);
          allows = r.bool();
        } else if (id === 2) {
          expectWire(t, 2);
          schema = decodeFields(f.sub as MessagePlan, r, delimited(r, stop));
        } else return false;
        return true;
      });
      return schema ?? allows;
    }
    case 'propsOrStringArray': {
      let schema: Plain | undefined;
      const list: string[] = [];
      readSmall(r, end, (id, t, stop) => {
        if (id === 1) {
          expectWire(t, 2);
          schema = decodeFields(f.sub as MessagePlan, r, delimited(r, stop));
        } else if (id === 2) {
          expectWire(t, 2);
          list.push(readString(r, delimited(r, stop)));
        } else return false;
        return true;
      });
      return schema ?? list;
    }
    case 'extravalue': {
      const items: string[] = [];
      readSmall(r, end, (id, t, stop) => {
        if (id !== 1) return false;
        expectWire(t, 2);
        items.push(readString(r, delimited(r, stop)));
        return true;
      });
      return items;
    }
  }
}

/** Decodes the body of a `type` message into its JSON form (`extensionPrefix` as for `encodeMessage`). */
export function decodeMessage(type: Type, bytes: Uint8Array, extensionPrefix: string): Plain {
  const r = protobuf.Reader.create(bytes) as CallReader;
  r.call = { extPrefix: extensionPrefix, nesting: 0 };
  return decodeFields(planOf(type), r, bytes.length);
}
