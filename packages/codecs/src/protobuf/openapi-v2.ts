/**
 * Swagger 2.0 documents in the Protobuf form kubectl asks `/openapi/v2` for
 * (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`: gnostic's `openapi.v2.Document`).
 * The messages below are the subset of that schema a Kubernetes API document uses, with gnostic's
 * field numbers; vendor extensions, defaults, enums and examples travel as YAML text in
 * `Any.yaml`, as gnostic writes them.
 */
import protobuf from 'protobufjs';
import { stringify as toYaml } from 'yaml';

/** The media type kubectl sends in Accept for the Protobuf form of `/openapi/v2`. */
export const openApiV2ProtobufMediaType = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/**
 * The Content-Type that form is answered with: the same type with `.` for `@`, since Go's media
 * type parser (which clients apply to every response) refuses an `@` in a subtype.
 */
export const openApiV2ProtobufContentType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

const openApiV2Proto = `syntax = "proto3";
package openapi.v2;

message Document {
  string swagger = 1;
  Info info = 2;
  string host = 3;
  string base_path = 4;
  repeated string schemes = 5;
  repeated string consumes = 6;
  repeated string produces = 7;
  Paths paths = 8;
  Definitions definitions = 9;
  repeated NamedAny vendor_extension = 16;
}
message Info {
  string title = 1;
  string version = 2;
  string description = 3;
  repeated NamedAny vendor_extension = 7;
}
message Any { string yaml = 2; }
message NamedAny { string name = 1; Any value = 2; }
message Paths {
  repeated NamedAny vendor_extension = 1;
  repeated NamedPathItem path = 2;
}
message NamedPathItem { string name = 1; PathItem value = 2; }
message PathItem {
  string _ref = 1;
  Operation get = 2;
  Operation put = 3;
  Operation post = 4;
  Operation delete = 5;
  Operation options = 6;
  Operation head = 7;
  Operation patch = 8;
  repeated ParametersItem parameters = 9;
  repeated NamedAny vendor_extension = 10;
}
message Operation {
  repeated string tags = 1;
  string summary = 2;
  string description = 3;
  string operation_id = 5;
  repeated string produces = 6;
  repeated string consumes = 7;
  repeated ParametersItem parameters = 8;
  Responses responses = 9;
  repeated string schemes = 10;
  bool deprecated = 11;
  repeated NamedAny vendor_extension = 13;
}
message ParametersItem {
  oneof oneof { Parameter parameter = 1; JsonReference json_reference = 2; }
}
message JsonReference { string _ref = 1; string description = 2; }
message Parameter {
  oneof oneof { BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2; }
}
message BodyParameter {
  string description = 1;
  string name = 2;
  string in = 3;
  bool required = 4;
  Schema schema = 5;
  repeated NamedAny vendor_extension = 6;
}
message NonBodyParameter {
  oneof oneof {
    HeaderParameter header_parameter_sub_schema = 1;
    QueryParameter query_parameter_sub_schema = 3;
    PathParameter path_parameter_sub_schema = 4;
  }
}
message HeaderParameter {
  bool required = 1; string in = 2; string description = 3; string name = 4; string type = 5;
  string format = 6; bool unique_items = 19; repeated NamedAny vendor_extension = 22;
}
message QueryParameter {
  bool required = 1; string in = 2; string description = 3; string name = 4; bool allow_empty_value = 5;
  string type = 6; string format = 7; bool unique_items = 20; repeated NamedAny vendor_extension = 23;
}
message PathParameter {
  bool required = 1; string in = 2; string description = 3; string name = 4; string type = 5;
  string format = 6; bool unique_items = 19; repeated NamedAny vendor_extension = 22;
}
message Responses {
  repeated NamedResponseValue response_code = 1;
  repeated NamedAny vendor_extension = 2;
}
message NamedResponseValue { string name = 1; ResponseValue value = 2; }
message ResponseValue {
  oneof oneof { Response response = 1; JsonReference json_reference = 2; }
}
message Response {
  string description = 1;
  SchemaItem schema = 2;
  repeated NamedAny vendor_extension = 5;
}
message SchemaItem { oneof oneof { Schema schema = 1; } }
message Definitions { repeated NamedSchema additional_properties = 1; }
message NamedSchema { string name = 1; Schema value = 2; }
message Properties { repeated NamedSchema additional_properties = 1; }
message TypeItem { repeated string value = 1; }
message ItemsItem { repeated Schema schema = 1; }
message AdditionalPropertiesItem { oneof oneof { Schema schema = 1; bool boolean = 2; } }
message Schema {
  string _ref = 1;
  string format = 2;
  string title = 3;
  string description = 4;
  Any default = 5;
  double multiple_of = 6;
  double maximum = 7;
  bool exclusive_maximum = 8;
  double minimum = 9;
  bool exclusive_minimum = 10;
  int64 max_length = 11;
  int64 min_length = 12;
  string pattern = 13;
  int64 max_items = 14;
  int64 min_items = 15;
  bool unique_items = 16;
  int64 max_properties = 17;
  int64 min_properties = 18;
  repeated string required = 19;
  repeated Any enum = 20;
  AdditionalPropertiesItem additional_properties = 21;
  TypeItem type = 22;
  ItemsItem items = 23;
  repeated Schema all_of = 24;
  Properties properties = 25;
  bool read_only = 27;
  Any example = 30;
  repeated NamedAny vendor_extension = 31;
}
`;

let documentType: protobuf.Type | undefined;

function documentMessage(): protobuf.Type {
  documentType ??= protobuf.parse(openApiV2Proto, { keepCase: true }).root.lookupType('openapi.v2.Document');
  return documentType;
}

type Json = Record<string, unknown>;
type Msg = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const anyOf = (v: unknown): Msg => ({ yaml: toYaml(v) });

function extensions(o: Json): Msg[] {
  return Object.keys(o)
    .filter((k) => k.startsWith('x-'))
    .map((name) => ({ name, value: anyOf(o[name]) }));
}

const schemaNumbers = [
  'multipleOf',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
] as const;

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function schemaOf(s: Json): Msg {
  const m: Msg = {};
  if (typeof s.$ref === 'string') m._ref = s.$ref;
  for (const k of ['format', 'title', 'description', 'pattern'] as const)
    if (typeof s[k] === 'string') m[k] = s[k];
  for (const k of schemaNumbers) if (typeof s[k] === 'number') m[snake(k)] = s[k];
  for (const k of ['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'readOnly'] as const)
    if (s[k] === true) m[snake(k)] = true;
  if (s.default !== undefined) m.default = anyOf(s.default);
  if (s.example !== undefined) m.example = anyOf(s.example);
  if (Array.isArray(s.required)) m.required = s.required.filter((r) => typeof r === 'string');
  if (Array.isArray(s.enum)) m.enum = s.enum.map(anyOf);
  if (typeof s.type === 'string') m.type = { value: [s.type] };
  else if (Array.isArray(s.type)) m.type = { value: s.type };
  if (isObject(s.items)) m.items = { schema: [schemaOf(s.items)] };
  else if (Array.isArray(s.items)) m.items = { schema: s.items.filter(isObject).map(schemaOf) };
  if (Array.isArray(s.allOf)) m.all_of = s.allOf.filter(isObject).map(schemaOf);
  if (isObject(s.properties)) m.properties = { additional_properties: namedSchemas(s.properties) };
  if (typeof s.additionalProperties === 'boolean')
    m.additional_properties = { boolean: s.additionalProperties };
  else if (isObject(s.additionalProperties))
    m.additional_properties = { schema: schemaOf(s.additionalProperties) };
  const ext = extensions(s);
  if (ext.length > 0) m.vendor_extension = ext;
  return m;
}

function namedSchemas(o: Json): Msg[] {
  return Object.keys(o)
    .filter((name) => isObject(o[name]))
    .map((name) => ({ name, value: schemaOf(o[name] as Json) }));
}

function parameterOf(p: Json): Msg {
  if (typeof p.$ref === 'string') return { json_reference: { _ref: p.$ref } };
  const common: Msg = {};
  for (const k of ['name', 'in', 'description', 'type', 'format'] as const)
    if (typeof p[k] === 'string') common[k] = p[k];
  if (p.required === true) common.required = true;
  if (p.uniqueItems === true) common.unique_items = true;
  const ext = extensions(p);
  if (ext.length > 0) common.vendor_extension = ext;
  if (p.in === 'body') {
    const { type: _t, format: _f, unique_items: _u, ...body } = common;
    return {
      parameter: {
        body_parameter: { ...body, ...(isObject(p.schema) ? { schema: schemaOf(p.schema) } : {}) },
      },
    };
  }
  const kind =
    p.in === 'query'
      ? 'query_parameter_sub_schema'
      : p.in === 'header'
        ? 'header_parameter_sub_schema'
        : 'path_parameter_sub_schema';
  if (p.allowEmptyValue === true && kind === 'query_parameter_sub_schema') common.allow_empty_value = true;
  return { parameter: { non_body_parameter: { [kind]: common } } };
}

function operationOf(o: Json): Msg {
  const m: Msg = {};
  for (const k of ['summary', 'description'] as const) if (typeof o[k] === 'string') m[k] = o[k];
  if (typeof o.operationId === 'string') m.operation_id = o.operationId;
  for (const k of ['tags', 'produces', 'consumes', 'schemes'] as const)
    if (Array.isArray(o[k])) m[k] = (o[k] as unknown[]).filter((v) => typeof v === 'string');
  if (Array.isArray(o.parameters)) m.parameters = o.parameters.filter(isObject).map(parameterOf);
  if (isObject(o.responses)) {
    const responses = o.responses;
    m.responses = {
      response_code: Object.keys(responses)
        .filter((code) => isObject(responses[code]))
        .map((code) => {
          const r = responses[code] as Json;
          const response: Msg = { description: typeof r.description === 'string' ? r.description : '' };
          if (isObject(r.schema)) response.schema = { schema: schemaOf(r.schema) };
          return { name: code, value: { response } };
        }),
    };
  }
  if (o.deprecated === true) m.deprecated = true;
  const ext = extensions(o);
  if (ext.length > 0) m.vendor_extension = ext;
  return m;
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

function pathItemOf(p: Json): Msg {
  const m: Msg = {};
  for (const method of methods) if (isObject(p[method])) m[method] = operationOf(p[method] as Json);
  if (Array.isArray(p.parameters)) m.parameters = p.parameters.filter(isObject).map(parameterOf);
  const ext = extensions(p);
  if (ext.length > 0) m.vendor_extension = ext;
  return m;
}

/**
 * Encodes a Swagger 2.0 document (the JSON form `/openapi/v2` serves) as gnostic's
 * `openapi.v2.Document`. Keys the subset does not model are left out, as they are of no use to
 * the clients that ask for this form (kubectl reads definitions and their extensions).
 */
export function encodeOpenApiV2Protobuf(doc: Json): Uint8Array {
  const m: Msg = {};
  if (typeof doc.swagger === 'string') m.swagger = doc.swagger;
  if (isObject(doc.info)) {
    const info = doc.info;
    m.info = {
      ...(typeof info.title === 'string' ? { title: info.title } : {}),
      ...(typeof info.version === 'string' ? { version: info.version } : {}),
    };
  }
  for (const k of ['host', 'basePath'] as const) if (typeof doc[k] === 'string') m[snake(k)] = doc[k];
  for (const k of ['schemes', 'consumes', 'produces'] as const) if (Array.isArray(doc[k])) m[k] = doc[k];
  if (isObject(doc.paths)) {
    const paths = doc.paths;
    m.paths = {
      path: Object.keys(paths)
        .filter((name) => isObject(paths[name]))
        .map((name) => ({ name, value: pathItemOf(paths[name] as Json) })),
    };
  }
  if (isObject(doc.definitions)) m.definitions = { additional_properties: namedSchemas(doc.definitions) };
  const ext = extensions(doc);
  if (ext.length > 0) m.vendor_extension = ext;
  const type = documentMessage();
  return type.encode(type.fromObject(m)).finish();
}

/** Decodes the Protobuf form back into plain message objects (for tests and tools). */
export function decodeOpenApiV2Protobuf(bytes: Uint8Array): Record<string, unknown> {
  const type = documentMessage();
  return type.toObject(type.decode(bytes), { longs: Number, defaults: false, oneofs: false });
}
