/**
 * Encoding: walks the JSON form of an object into a protobufjs `Writer`, field by field along its
 * message plan, converting the apimachinery messages with a JSON form of their own.
 */
import { isTimeParseError } from '@orchard/meta';
import { isJsonObject, parseRfc3339Parts } from '@orchard/meta/internal';

import type { Type, Writer } from 'protobufjs';
import protobuf from 'protobufjs';
import { ConversionError, fail } from './conversion-error.js';
import { type CallWriter, type FieldPlan, jsonKey, type MessagePlan, planOf } from './wire-plan.js';
import { fromBase64, utf8Encode } from './wire-values.js';

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
