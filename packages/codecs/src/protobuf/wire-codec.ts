/**
 * The JSON form of an object straight to and from Protobuf wire bytes, driven by per-message
 * plans built once from the protobufjs reflection of the bundled `.proto` sources. No
 * intermediate message objects: encoding walks the JSON object into a protobufjs `Writer`,
 * decoding reads a `Reader` into JSON. The apimachinery messages with a JSON form of their own
 * (`Time`, `MicroTime`, `FieldsV1`, `RawExtension`, `IntOrString`, `Quantity`, `ExtraValue`)
 * are converted here, once; embedded Go structs (`json:",inline"`) and Go's `omitempty` are
 * applied from `presence.ts`.
 *
 * Decoding checks every length against the end of its enclosing message and every wire type
 * against the field's type; what does not fit throws `ConversionError` (`truncated` set when
 * the bytes end inside a value).
 */
import { isTimeParseError } from '@orchard/meta';
import {
  formatRfc3339Parts,
  isJsonObject,
  maxNestingDepth,
  parseRfc3339Parts,
  setOwn,
} from '@orchard/meta/internal';

import type { Reader, Type, Writer } from 'protobufjs';
import protobuf from 'protobufjs';
import { inlineFields, jsonNames, keepZeroFields } from './presence.js';
import { fromBase64, int64ToNumber, toBase64, utf8Decode, utf8Encode } from './wire-values.js';

/** A value does not fit its field. `path` is filled in on the way out. */
export class ConversionError extends Error {
  constructor(
    public path: string,
    readonly detail: string,
    readonly truncated = false,
  ) {
    super(`${path || '<root>'}: ${detail}`);
    this.name = 'ConversionError';
  }

  /** Prefixes one path segment (`.field` or `[i]`) as the error travels up. */
  under(segment: string): ConversionError {
    this.path = segment + this.path;
    this.message = `${this.path.replace(/^\./, '') || '<root>'}: ${this.detail}`;
    return this;
  }
}

const metaV1Package = '.k8s.io.apimachinery.pkg.apis.meta.v1.';
const apiextensionsV1Package = '.k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.';
/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the range RFC 3339 (and Go's time) can print. */
const minTimestampSeconds = -62135596800;
const maxTimestampSeconds = 253402300799;

type Kind =
  | 'string'
  | 'bool'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'bytes'
  | 'double'
  | 'message'
  | 'time'
  | 'microtime'
  | 'fieldsv1'
  | 'rawext'
  | 'intorstring'
  | 'quantity'
  | 'extravalue'
  | 'propsOrArray'
  | 'propsOrBool'
  | 'propsOrStringArray';

interface FieldPlan {
  /** The proto field name. */
  readonly name: string;
  /** The JSON name (usually the proto name; `$ref`, `$schema` …). */
  readonly json: string;
  /** For OpenAPI extensions: the name after the flavor's prefix (`list-type`). */
  readonly ext?: string;
  readonly id: number;
  readonly kind: Kind;
  readonly wireType: number;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly inline: boolean;
  readonly keepZero: boolean;
  /** A plain scalar (string, bool, number, bytes): subject to `omitempty` on decode. */
  readonly scalar: boolean;
  sub?: MessagePlan;
}

export interface MessagePlan {
  readonly name: string;
  readonly fields: FieldPlan[];
  readonly byId: Array<FieldPlan | undefined>;
}

const scalarKinds: Record<string, Kind> = {
  string: 'string',
  bool: 'bool',
  int32: 'int32',
  int64: 'int64',
  uint32: 'uint32',
  uint64: 'uint64',
  bytes: 'bytes',
  double: 'double',
};

function specialKind(t: Type): Kind | undefined {
  switch (t.fullName) {
    case `${metaV1Package}Time`:
      return 'time';
    case `${metaV1Package}MicroTime`:
      return 'microtime';
    case `${metaV1Package}FieldsV1`:
      return 'fieldsv1';
    case '.k8s.io.apimachinery.pkg.runtime.RawExtension':
      return 'rawext';
    case '.k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return 'intorstring';
    case '.k8s.io.apimachinery.pkg.api.resource.Quantity':
      return 'quantity';
    case `${apiextensionsV1Package}JSON`:
      return 'rawext';
    case `${apiextensionsV1Package}JSONSchemaPropsOrArray`:
      return 'propsOrArray';
    case `${apiextensionsV1Package}JSONSchemaPropsOrBool`:
      return 'propsOrBool';
    case `${apiextensionsV1Package}JSONSchemaPropsOrStringArray`:
      return 'propsOrStringArray';
    default:
      return t.name === 'ExtraValue' ? 'extravalue' : undefined;
  }
}

const varintKinds: ReadonlySet<Kind> = new Set<Kind>(['bool', 'int32', 'int64', 'uint32', 'uint64']);

const plans = new Map<string, MessagePlan>();

/** The plan of a message type (built once per type, recursively, cycles allowed). */
export function planOf(type: Type): MessagePlan {
  const cached = plans.get(type.fullName);
  if (cached) return cached;
  const plan: MessagePlan = { name: type.name, fields: [], byId: [] };
  plans.set(type.fullName, plan);
  for (const f of type.fieldsArray) {
    const rt = f.resolvedType;
    let kind: Kind;
    let sub: MessagePlan | undefined;
    if (rt && 'fieldsArray' in rt) {
      const special = specialKind(rt as Type);
      kind = special ?? 'message';
      if (!special) sub = planOf(rt as Type);
      // The JSONSchemaProps alternatives carry a JSONSchemaProps in their field `schema`.
      else if (special.startsWith('props')) sub = planOf((rt as Type).fields.schema?.resolvedType as Type);
    } else {
      const k = scalarKinds[f.type];
      if (!k || rt) throw new Error(`unsupported field type ${f.type} in ${type.fullName}.${f.name}`);
      kind = k;
    }
    if (f.map && (f as unknown as { keyType: string }).keyType !== 'string')
      throw new Error(`unsupported map key type in ${type.fullName}.${f.name}`);
    const wireType = kind === 'double' ? 1 : varintKinds.has(kind) ? 0 : 2;
    const key = `${type.name}.${f.name}`;
    const jsonName = jsonNames.get(key) ?? f.name;
    const fp: FieldPlan = {
      name: f.name,
      json: jsonName,
      ...(jsonName.startsWith('ext:') ? { ext: jsonName.slice(4) } : {}),
      id: f.id,
      kind,
      wireType,
      repeated: f.repeated && !f.map,
      map: f.map,
      inline: inlineFields.has(key),
      keepZero: keepZeroFields.has(key),
      scalar: scalarKinds[f.type] !== undefined && !rt,
    };
    if (sub) fp.sub = sub;
    plan.fields.push(fp);
    plan.byId[f.id] = fp;
  }
  return plan;
}

/**
 * What one encode or decode call carries down its walk, on the Writer/Reader it creates (no module
 * state: two servers of different flavors in one process encode side by side): the flavor's
 * OpenAPI extension prefix (`x-kubernetes-` / `x-orch-`) for the JSON names of extension fields,
 * and how deep the messages being decoded nest.
 */
interface WireCall {
  extPrefix: string;
  nesting: number;
}
type CallWriter = Writer & { call: WireCall };
type CallReader = Reader & { call: WireCall };

function jsonKey(f: FieldPlan, call: WireCall): string {
  return f.ext === undefined ? f.json : call.extPrefix + f.ext;
}

// ---------------------------------------------------------------- encode

type Plain = Record<string, unknown>;

function fail(detail: string): never {
  throw new ConversionError('', detail);
}

/** Writes the fields of `json` as the body of a `plan` message (no tag, no length). */
function encodeFields(plan: MessagePlan, json: unknown, w: Writer): void {
  const call = (w as CallWriter).call;
  if (!isJsonObject(json)) fail(`expected an object for ${plan.name}`);
  for (const f of plan.fields) {
    try {
      if (f.inline) {
        // The embedded struct's fields are the parent's own JSON fields.
        w.uint32((f.id << 3) | 2).fork();
        encodeFields(f.sub as MessagePlan, json, w);
        w.ldelim();
        continue;
      }
      const v = json[jsonKey(f, call)];
      if (v === undefined || v === null) continue;
      if (f.map) {
        if (!isJsonObject(v)) fail('expected a map');
        for (const k of Object.keys(v)) {
          const item = v[k];
          if (item === undefined || item === null) continue;
          w.uint32((f.id << 3) | 2)
            .fork()
            .uint32(10)
            .string(k);
          try {
            writeValue(f, 2, item, w);
          } catch (e) {
            throw e instanceof ConversionError ? e.under(`[${k}]`) : e;
          }
          w.ldelim();
        }
      } else if (f.repeated) {
        if (!Array.isArray(v)) fail('expected a list');
        for (let i = 0; i < v.length; i++) {
          try {
            writeValue(f, f.id, v[i], w);
          } catch (e) {
            throw e instanceof ConversionError ? e.under(`[${i}]`) : e;
          }
        }
      } else writeValue(f, f.id, v, w);
    } catch (e) {
      throw e instanceof ConversionError ? e.under(`.${jsonKey(f, call)}`) : e;
    }
  }
}

function checkInt(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail('expected an integer');
  return v;
}

function writeJsonBytes(id: number, field: number, v: unknown, w: Writer): void {
  w.uint32((id << 3) | 2).fork();
  w.uint32((field << 3) | 2).bytes(utf8Encode(JSON.stringify(v)));
  w.ldelim();
}

function writeValue(f: FieldPlan, id: number, v: unknown, w: Writer): void {
  switch (f.kind) {
    case 'string':
      if (typeof v !== 'string') fail('expected a string');
      w.uint32((id << 3) | 2).string(v);
      return;
    case 'bool':
      if (typeof v !== 'boolean') fail('expected a boolean');
      w.uint32(id << 3).bool(v);
      return;
    case 'int32':
      w.uint32(id << 3).int32(checkInt(v));
      return;
    case 'uint32':
      w.uint32(id << 3).uint32(checkInt(v));
      return;
    case 'int64':
      w.uint32(id << 3).int64(checkInt(v));
      return;
    case 'uint64':
      w.uint32(id << 3).uint64(checkInt(v));
      return;
    case 'double':
      if (typeof v !== 'number') fail('expected a number');
      w.uint32((id << 3) | 1).double(v);
      return;
    case 'bytes': {
      if (typeof v !== 'string') fail('expected a base64 string');
      const b = fromBase64(v);
      if (!b) fail('invalid base64');
      w.uint32((id << 3) | 2).bytes(b);
      return;
    }
    case 'message':
      w.uint32((id << 3) | 2).fork();
      encodeFields(f.sub as MessagePlan, v, w);
      w.ldelim();
      return;
    case 'time':
    case 'microtime': {
      if (typeof v !== 'string') fail('expected an RFC 3339 timestamp string');
      let t: { seconds: number; nanos: number };
      try {
        t = parseRfc3339Parts(v);
      } catch (e) {
        if (!isTimeParseError(e)) throw e;
        fail(e.message);
      }
      // Time has second precision on the wire, as upstream's Time.ProtoTime of a JSON-read time.
      w.uint32((id << 3) | 2)
        .fork()
        .uint32(8)
        .int64(t.seconds)
        .uint32(16)
        .int32(f.kind === 'time' ? 0 : t.nanos)
        .ldelim();
      return;
    }
    case 'fieldsv1':
    case 'rawext':
      writeJsonBytes(id, 1, v, w);
      return;
    case 'intorstring':
      if (typeof v === 'number' && Number.isInteger(v))
        w.uint32((id << 3) | 2)
          .fork()
          .uint32(8)
          .int64(0)
          .uint32(16)
          .int32(v)
          .ldelim();
      else if (typeof v === 'string')
        w.uint32((id << 3) | 2)
          .fork()
          .uint32(8)
          .int64(1)
          .uint32(26)
          .string(v)
          .ldelim();
      else fail('expected an integer or a string');
      return;
    case 'quantity':
      if (typeof v === 'number' && Number.isFinite(v)) v = String(v);
      if (typeof v !== 'string') fail('expected a quantity string');
      w.uint32((id << 3) | 2)
        .fork()
        .uint32(10)
        .string(v as string)
        .ldelim();
      return;
    case 'propsOrArray':
      w.uint32((id << 3) | 2).fork();
      if (Array.isArray(v)) for (const item of v) writeProps(f, 2, item, w);
      else writeProps(f, 1, v, w);
      w.ldelim();
      return;
    case 'propsOrBool':
      // Upstream's JSONSchemaPropsOrBool: a schema means `allows: true` plus the schema.
      w.uint32((id << 3) | 2).fork();
      if (typeof v === 'boolean') w.uint32(8).bool(v);
      else {
        w.uint32(8).bool(true);
        writeProps(f, 2, v, w);
      }
      w.ldelim();
      return;
    case 'propsOrStringArray':
      w.uint32((id << 3) | 2).fork();
      if (Array.isArray(v)) {
        for (const item of v) {
          if (typeof item !== 'string') fail('expected a list of strings');
          w.uint32(18).string(item);
        }
      } else writeProps(f, 1, v, w);
      w.ldelim();
      return;
    case 'extravalue': {
      if (!Array.isArray(v)) fail('expected a list of strings');
      w.uint32((id << 3) | 2).fork();
      for (const s of v) {
        if (typeof s !== 'string') fail('expected a list of strings');
        w.uint32(10).string(s);
      }
      w.ldelim();
      return;
    }
  }
}

function writeProps(f: FieldPlan, field: number, v: unknown, w: Writer): void {
  w.uint32((field << 3) | 2).fork();
  encodeFields(f.sub as MessagePlan, v, w);
  w.ldelim();
}

/**
 * Encodes a JSON-form object as the body of `type` (the bytes that go into `Unknown.raw`).
 * `extensionPrefix` names OpenAPI extension fields in CRD schemas (the flavor's, `x-kubernetes-`).
 */
export function encodeMessage(type: Type, json: unknown, extensionPrefix: string): Uint8Array {
  const w = protobuf.Writer.create() as CallWriter;
  w.call = { extPrefix: extensionPrefix, nesting: 0 };
  encodeFields(planOf(type), json, w);
  return w.finish();
}

// ---------------------------------------------------------------- decode

function truncated(): never {
  throw new ConversionError('', 'the data ends inside a value', true);
}

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
