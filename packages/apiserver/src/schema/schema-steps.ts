import { errors } from '@orchard/meta';
import {
  applyDefaults,
  type FieldError,
  fieldSchema,
  prune,
  type StructuralSchema,
  toStatusCauses,
  validate,
} from '@orchard/schema';
import type { WriteRequest, WriteStep } from '../handlers/write-pipeline.js';
import { reportFieldProblems } from './field-validation.js';
import { canonicalizeGoValues } from './go-canonical-form.js';
import { firstGoDecodingError } from './go-decoding.js';
import { isCustomResource, schemaFor } from './schemas.js';

function schemaOf(w: WriteRequest): StructuralSchema | undefined {
  return schemaFor(w.def, w.ctx.version, w.ctx.server.flavor);
}

const goTypes: Record<string, string> = {
  string: 'string',
  integer: 'int64',
  number: 'float64',
  boolean: 'bool',
  object: 'map[string]interface {}',
  array: '[]interface {}',
};

function goTypeOf(s: StructuralSchema | undefined): string {
  if (!s) return 'interface {}';
  if (s.intOrString) return 'intstr.IntOrString';
  if (s.type === 'integer' && s.format === 'int32') return 'int32';
  return goTypes[s.type ?? ''] ?? 'interface {}';
}

function schemaAt(root: StructuralSchema, path: string): StructuralSchema | undefined {
  let s: StructuralSchema | undefined = root;
  for (const part of path.split(/\.|\[\d+\]/).filter(Boolean)) {
    if (!s) return undefined;
    s = fieldSchema(s, part);
  }
  if (s && /\[\d+\]$/.test(path)) s = s.items;
  return s;
}

/**
 * A type error in a built-in kind is a decoding error upstream: 400 BadRequest naming only the
 * first one (spec doc 1 §4.10: "a 400 that names only the first fatal error").
 */
function builtinTypeError(w: WriteRequest, schema: StructuralSchema, e: FieldError): Error {
  const kind = w.def.kind;
  const actual = /^Invalid value: "([a-z]+)"/.exec(e.message)?.[1] ?? 'value';
  const goActual = actual === 'integer' || actual === 'number' ? 'number' : actual;
  return cannotBeHandled(
    w,
    `json: cannot unmarshal ${goActual} into Go struct field ${kind}.${e.field} of type ${goTypeOf(schemaAt(schema, e.field))}`,
  );
}

/** Upstream's 400 for a body its typed decoder refused. */
function cannotBeHandled(w: WriteRequest, why: string): Error {
  const kind = w.def.kind;
  return errors.badRequest(`${kind} in version "${w.ctx.version}" cannot be handled as a ${kind}: ${why}`);
}

/**
 * `schema`: the decoding half of schema handling, right after the body became an object:
 * nulls dropped and defaults applied, type errors of built-in kinds (400, first one only) and
 * their values put in upstream's canonical forms (Quantity, Time, MicroTime), then pruning of
 * unknown fields with field validation (unknown and duplicate fields: Ignore / Warn / Strict).
 */
export const schemaStep: WriteStep = {
  name: 'schema',
  operations: ['create', 'update', 'patch'],
  run(w) {
    const schema = schemaOf(w);
    if (!schema) return;
    // Nulls in non-nullable fields go first (Go decodes them as absent; CRs drop them before
    // defaulting), then defaults fill missing fields.
    applyDefaults(w.obj, schema);
    if (!isCustomResource(w.def)) {
      const typeError = validate(w.obj, schema).find((e) => e.type === 'FieldValueTypeInvalid');
      if (typeError) throw builtinTypeError(w, schema, typeError);
      const valueError = firstGoDecodingError(w.obj, schema, w.def.kind);
      if (valueError) throw cannotBeHandled(w, valueError);
      canonicalizeGoValues(w.obj, schema, w.def.kind);
    }
    const unknown = prune(w.obj, schema, { isResourceRoot: true });
    // Upstream's create and update handlers pass a strict decoding error through their decoder's
    // "<Kind> in version … cannot be handled as a <Kind>: …"; patch answers it bare.
    reportFieldProblems(
      w.ctx,
      unknown,
      w.operation === 'patch' ? undefined : (message) => cannotBeHandled(w, message),
    );
  },
};

/**
 * `schema-validation`: OpenAPI value validation against the schema; every violation is a 422 cause.
 * A custom resource's are answered here; a built-in kind's go to `validation`, which reports them
 * in one 422 with the metadata and the type's own rules, as upstream's typed validation does.
 */
export const schemaValidationStep: WriteStep = {
  name: 'schema-validation',
  operations: ['create', 'update', 'patch'],
  run(w) {
    w.schemaCauses = undefined;
    const schema = schemaOf(w);
    if (!schema) return;
    const errs = validate(w.obj, schema, { maxErrors: 100 });
    if (errs.length === 0) return;
    if (!isCustomResource(w.def)) {
      w.schemaCauses = toStatusCauses(errs);
      return;
    }
    const meta = w.obj.metadata ?? {};
    throw errors.invalid(
      w.def.group,
      w.def.kind,
      meta.name ?? meta.generateName ?? w.name,
      toStatusCauses(errs),
    );
  },
};
