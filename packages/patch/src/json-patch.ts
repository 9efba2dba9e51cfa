/**
 * JSON Patch (RFC 6902, `application/json-patch+json`) on fast-json-patch, with upstream's
 * wording for failures and a bound on the number of operations.
 */
import { cloneJson } from '@orchard/meta/internal';
import { findDuplicateFieldsJson } from '@orchard/schema';
import fjp from 'fast-json-patch';
import { PatchError } from './errors.js';

/** One RFC 6902 operation. */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

/** Limits of JSON Patch application (operation count). */
export interface JsonPatchOptions {
  /** Most operations one patch may hold (default 10000, upstream's `maxJSONPatchOperations`). */
  maxOperations?: number;
}

/** Defaults of `JsonPatchOptions`. */
export const defaultJsonPatchOptions: Readonly<Required<JsonPatchOptions>> = Object.freeze({
  maxOperations: 10_000,
});

const ops = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/**
 * Checks the shape of a decoded JSON Patch document: an array of operation objects with a known
 * `op`, string `path` (and `from` for move/copy) and a `value` where required. Throws
 * `PatchError('Malformed')`.
 */
export function parseJsonPatch(patch: unknown, options: JsonPatchOptions = {}): JsonPatchOperation[] {
  const max = options.maxOperations ?? defaultJsonPatchOptions.maxOperations;
  if (!Array.isArray(patch)) {
    throw new PatchError('Malformed', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  if (patch.length > max) {
    throw new PatchError(
      'TooManyOperations',
      `The allowed maximum operations in a JSON patch is ${max}, got ${patch.length}`,
    );
  }
  patch.forEach((o, i) => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      throw new PatchError(
        'Malformed',
        `json: cannot unmarshal ${Array.isArray(o) ? 'array' : typeof o} into Go value of type jsonpatch.Operation`,
        i,
      );
    }
    const op = (o as Record<string, unknown>).op;
    if (typeof op !== 'string' || !ops.has(op)) {
      throw new PatchError('Unprocessable', `Unexpected kind: ${typeof op === 'string' ? op : 'unknown'}`, i);
    }
    const path = (o as Record<string, unknown>).path;
    if (typeof path !== 'string')
      throw new PatchError('Unprocessable', `operation missing path field: ${op}`, i);
    if ((op === 'move' || op === 'copy') && typeof (o as Record<string, unknown>).from !== 'string') {
      throw new PatchError('Unprocessable', `operation missing from field: ${op}`, i);
    }
    if ((op === 'add' || op === 'replace' || op === 'test') && !('value' in (o as object))) {
      throw new PatchError('Unprocessable', `operation missing value field: ${op}`, i);
    }
  });
  return patch as JsonPatchOperation[];
}

/**
 * Decodes the JSON text of a JSON Patch. Besides malformed JSON (`Malformed`), it rejects an
 * operation with a repeated member (`{"op":"add", …, "op":"move"}`), which `JSON.parse` would
 * silently collapse: RFC 6902 §4 allows exactly one `op` per operation.
 */
export function parseJsonPatchText(text: string): unknown {
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch (e) {
    throw new PatchError('Malformed', `invalid JSON patch: ${(e as Error).message}`);
  }
  // Only a repeated member of an operation itself changes its meaning; a repeated key inside a
  // `value` is ordinary JSON (the last one wins, as everywhere else).
  for (const d of findDuplicateFieldsJson(text, patch)) {
    const m = /^\[(\d+)\]\.(op|path|from|value)$/.exec(d);
    if (m) {
      throw new PatchError(
        'Malformed',
        `invalid JSON patch: operation ${m[1]} has two ${JSON.stringify(m[2])} members`,
        Number(m[1]),
      );
    }
  }
  return patch;
}

/**
 * Applies a JSON Patch to a COPY of `doc` and returns the result. All-or-nothing: on any failure
 * `doc` is untouched and a `PatchError` says why (`TestFailed` for a failing `test`,
 * `Unprocessable` for a path that does not resolve or an index out of bounds).
 */
export function applyJsonPatch<T = unknown>(doc: T, patch: unknown, options: JsonPatchOptions = {}): T {
  const operations = parseJsonPatch(patch, options);
  // RFC 6902 §4.4: a location cannot move into one of its own children (fast-json-patch would
  // throw a TypeError from deep inside).
  operations.forEach((o, i) => {
    if (o.op === 'move' && o.from !== undefined && o.path.startsWith(`${o.from}/`)) {
      throw new PatchError(
        'Unprocessable',
        `move operation does not apply: "from" ${o.from} is a proper prefix of "path" ${o.path}`,
        i,
      );
    }
  });
  const copy = doc === undefined ? doc : cloneJson(doc);
  // fast-json-patch refuses paths through `__proto__`/`constructor`/`prototype` (it would walk the
  // prototype chain). For us they are ordinary unknown fields: the patch is applied with those
  // segments renamed to inert stand-ins, and the result renamed back.
  const hostile = operations.some((o) => hasPrototypeSegment(o.path) || hasPrototypeSegment(o.from));
  const ops = hostile ? operations.map(renameOperation) : operations;
  try {
    const result = fjp.applyPatch(
      hostile ? renameKeys(copy, toStandIn) : copy,
      ops as fjp.Operation[],
      true,
      true,
      true,
    );
    return (hostile ? renameKeys(result.newDocument, fromStandIn) : result.newDocument) as T;
  } catch (e) {
    throw translate(e, operations);
  }
}

const prototypeKeys = new Set(['__proto__', 'constructor', 'prototype']);
const standInPrefix = '\u{F8FF}orchard-own:';
const toStandIn = (k: string) => (prototypeKeys.has(k) ? standInPrefix + k : k);
const fromStandIn = (k: string) => (k.startsWith(standInPrefix) ? k.slice(standInPrefix.length) : k);

function hasPrototypeSegment(pointer: string | undefined): boolean {
  return pointer?.split('/').some((seg) => prototypeKeys.has(seg)) ?? false;
}

function renameOperation(o: JsonPatchOperation): JsonPatchOperation {
  const rename = (p: string) =>
    p
      .split('/')
      .map((seg) => toStandIn(seg))
      .join('/');
  const out: JsonPatchOperation = { ...o, path: rename(o.path) };
  if (o.from !== undefined) out.from = rename(o.from);
  if ('value' in o) out.value = renameKeys(o.value, toStandIn);
  return out;
}

/** A copy of `v` with every object key passed through `f` (own keys only; keys are defined, never assigned). */
function renameKeys(v: unknown, f: (k: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => renameKeys(x, f));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    Object.defineProperty(out, f(k), {
      value: renameKeys(x, f),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return out;
}

function translate(e: unknown, operations: JsonPatchOperation[]): PatchError {
  const err = e as { name?: string; index?: number; message?: string };
  const index = typeof err.index === 'number' ? err.index : undefined;
  const op = index === undefined ? undefined : operations[index];
  const where = op?.path ?? '';
  switch (err.name) {
    case 'TEST_OPERATION_FAILED':
      return new PatchError('TestFailed', `testing value ${where} failed: test failed`, index);
    case 'OPERATION_PATH_UNRESOLVABLE':
      return new PatchError(
        'Unprocessable',
        op?.op === 'remove'
          ? `Unable to remove nonexistent key: ${lastSegment(where)}: missing value`
          : `${op?.op ?? 'patch'} operation does not apply: doc is missing path: "${where}": missing value`,
        index,
      );
    case 'OPERATION_FROM_UNRESOLVABLE':
      return new PatchError(
        'Unprocessable',
        `${op?.op ?? 'patch'} operation does not apply: doc is missing from path: "${op?.from ?? ''}": missing value`,
        index,
      );
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
      return new PatchError(
        'Unprocessable',
        `${op?.op ?? 'patch'} operation does not apply: index out of bounds at path "${where}"`,
        index,
      );
    case 'OPERATION_PATH_CANNOT_ADD':
      return new PatchError(
        'Unprocessable',
        `${op?.op ?? 'patch'} operation does not apply: doc is missing path: "${where}": missing value`,
        index,
      );
    case 'OPERATION_VALUE_REQUIRED':
    case 'OPERATION_FROM_REQUIRED':
    case 'OPERATION_OP_INVALID':
    case 'OPERATION_PATH_INVALID':
    case 'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED':
    case 'OPERATION_NOT_AN_OBJECT':
    case 'SEQUENCE_NOT_AN_ARRAY':
      return new PatchError('Unprocessable', (err.message ?? 'invalid operation').split('\n')[0]!, index);
    default:
      return new PatchError('Unprocessable', (err.message ?? String(e)).split('\n')[0]!, index);
  }
}

function lastSegment(p: string): string {
  const i = p.lastIndexOf('/');
  return p
    .slice(i + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}
