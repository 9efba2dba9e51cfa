/**
 * The per-message plans the wire codec walks: built once per message type from the protobufjs
 * reflection, naming each field's JSON name, kind (scalar, message, or one of the apimachinery
 * messages with a JSON form of their own), wire type and `presence.ts` rules.
 */
import type { Reader, Type, Writer } from 'protobufjs';
import { inlineFields, jsonNames, keepZeroFields } from './presence.js';

const metaV1Package = '.k8s.io.apimachinery.pkg.apis.meta.v1.';
const apiextensionsV1Package = '.k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.';

export type Kind =
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

export interface FieldPlan {
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
export interface WireCall {
  extPrefix: string;
  nesting: number;
}
export type CallWriter = Writer & { call: WireCall };
export type CallReader = Reader & { call: WireCall };

export function jsonKey(f: FieldPlan, call: WireCall): string {
  return f.ext === undefined ? f.json : call.extPrefix + f.ext;
}

/** An object in JSON form. */
export type Plain = Record<string, unknown>;
