/**
 * Strategic merge patch (`application/strategic-merge-patch+json`): a merge patch that reads the
 * schema's `patchStrategy`/`patchMergeKey` so lists of objects merge by key, lists of scalars
 * merge as sets, and the directives `$patch` (replace/delete/merge), `$retainKeys`,
 * `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>` apply.
 */
import type { StructuralSchema } from '@orchard/schema';
import { PatchError } from './errors.js';
import { deepEqual } from './merge-patch.js';

type Obj = Record<string, unknown>;

export const directives = {
  patch: '$patch',
  retainKeys: '$retainKeys',
  deleteFromPrimitiveList: '$deleteFromPrimitiveList/',
  setElementOrder: '$setElementOrder/',
} as const;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T>(v: T): T {
  return v === null || typeof v !== 'object' ? v : structuredClone(v);
}

/** The schema of field `k` inside a struct or map schema. */
export function fieldSchema(s: StructuralSchema | undefined, k: string): StructuralSchema | undefined {
  if (!s) return undefined;
  const p = s.properties?.[k];
  if (p) return p;
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** The merge strategy of a list field: its merge key (object lists) or `set` (scalar lists), else replace. */
export function listStrategy(s: StructuralSchema | undefined): {
  merge: boolean;
  mergeKey: string | undefined;
} {
  const strategies = s?.patchStrategy?.split(',') ?? [];
  if (strategies.includes('merge')) return { merge: true, mergeKey: s?.patchMergeKey };
  return { merge: false, mergeKey: undefined };
}

function strategies(s: StructuralSchema | undefined): string[] {
  return s?.patchStrategy?.split(',') ?? [];
}

/**
 * Applies a strategic merge patch to `original` and returns the result; inputs are not mutated.
 * `schema` is the kind's schema (a schema without markers — or none — makes this a JSON merge
 * patch that also honours `$patch` directives). Throws `PatchError('Malformed')` for a patch that
 * is not an object, an unknown `$patch` value, a list element without its merge key, or
 * `$retainKeys` that does not cover the patched keys.
 */
export function applyStrategicMergePatch(
  original: unknown,
  patch: unknown,
  schema?: StructuralSchema,
): unknown {
  if (!isObject(patch))
    throw new PatchError('Malformed', 'invalid JSON document: a strategic merge patch must be a JSON object');
  const base = isObject(original) ? clone(original) : {};
  const out = mergeMap(base, patch, schema);
  return out === undefined ? {} : out;
}

/** Merges `patch` into `original` (which is owned and mutated); `undefined` means "delete this map". */
function mergeMap(original: Obj, patch: Obj, schema: StructuralSchema | undefined): Obj | undefined {
  const directive = patch[directives.patch];
  if (directive !== undefined) {
    if (directive === 'replace') {
      const rest = { ...patch };
      delete rest[directives.patch];
      return mergeMap({}, rest, schema) ?? {};
    }
    if (directive === 'delete') return undefined;
    if (directive !== 'merge')
      throw new PatchError(
        'Malformed',
        `Unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`,
      );
  }

  const retain = patch[directives.retainKeys];
  if (retain !== undefined) {
    if (!Array.isArray(retain))
      throw new PatchError(
        'Malformed',
        `invalid patch: $retainKeys must be a list, got ${JSON.stringify(retain)}`,
      );
    const keep = new Set(retain.map(String));
    for (const k of Object.keys(patch)) {
      if (k.startsWith('$') || patch[k] === null) continue;
      if (!keep.has(k)) {
        throw new PatchError(
          'Malformed',
          `The $retainKeys directive does not include the key ${JSON.stringify(k)} of the patch`,
        );
      }
    }
    for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
  }

  // $deleteFromPrimitiveList/<field> first, so that additions in the same patch survive.
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(directives.deleteFromPrimitiveList)) continue;
    const field = k.slice(directives.deleteFromPrimitiveList.length);
    if (!Array.isArray(v)) throw new PatchError('Malformed', `invalid patch: ${k} must be a list`);
    const cur = original[field];
    if (Array.isArray(cur)) original[field] = cur.filter((x) => !v.some((d) => deepEqual(d, x)));
  }

  for (const [k, pv] of Object.entries(patch)) {
    if (k === directives.patch || k === directives.retainKeys) continue;
    if (k.startsWith(directives.deleteFromPrimitiveList) || k.startsWith(directives.setElementOrder))
      continue;
    if (pv === null) {
      delete original[k];
      continue;
    }
    const sub = fieldSchema(schema, k);
    const ov = original[k];
    if (isObject(pv)) {
      if (strategies(sub).includes('replace')) {
        original[k] = stripDirectives(pv);
        continue;
      }
      const merged = mergeMap(isObject(ov) ? ov : {}, pv, sub);
      if (merged === undefined) delete original[k];
      else original[k] = merged;
    } else if (Array.isArray(pv)) {
      original[k] = mergeList(Array.isArray(ov) ? ov : [], pv, sub, k, !Array.isArray(ov));
    } else {
      original[k] = pv;
    }
  }

  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(directives.setElementOrder)) continue;
    const field = k.slice(directives.setElementOrder.length);
    if (!Array.isArray(v)) throw new PatchError('Malformed', `invalid patch: ${k} must be a list`);
    const cur = original[field];
    if (Array.isArray(cur))
      original[field] = applyOrder(cur, v, listStrategy(fieldSchema(schema, field)).mergeKey);
  }
  return original;
}

function mergeList(
  original: unknown[],
  patch: unknown[],
  schema: StructuralSchema | undefined,
  field: string,
  fresh: boolean,
): unknown[] {
  const { merge, mergeKey } = listStrategy(schema);
  // A `{$patch: replace}` element replaces the whole list with the other elements.
  const replaceIdx = patch.findIndex(
    (e) => isObject(e) && e[directives.patch] === 'replace' && Object.keys(e).length === 1,
  );
  if (replaceIdx >= 0) {
    return patch.filter((_, i) => i !== replaceIdx).map((e) => (isObject(e) ? stripDirectives(e) : e));
  }
  if (!merge) return patch.map((e) => (isObject(e) ? stripDirectives(e) : clone(e)));
  if (patch.length === 0) return fresh ? [] : original;

  const items = schema?.items;
  if (mergeKey === undefined || patch.every((e) => !isObject(e))) {
    // A set of scalars: union, keeping the original order then new elements in patch order.
    const out = [...original];
    for (const e of patch) {
      if (isObject(e))
        throw new PatchError('Malformed', `invalid patch: list ${field} mixes scalars and maps`);
      if (!out.some((x) => deepEqual(x, e))) out.push(e);
    }
    return out;
  }

  const out = [...original];
  for (const e of patch) {
    if (!isObject(e))
      throw new PatchError(
        'Malformed',
        `invalid patch: list ${field} with merge key ${mergeKey} holds a non-map element ${JSON.stringify(e)}`,
      );
    if (!(mergeKey in e)) {
      throw new PatchError(
        'Malformed',
        `map: ${JSON.stringify(e)} does not contain declared merge key: ${mergeKey}`,
      );
    }
    const key = e[mergeKey];
    const idx = out.findIndex((x) => isObject(x) && deepEqual(x[mergeKey], key));
    const d = e[directives.patch];
    if (d === 'delete') {
      if (idx >= 0) {
        // remove every element with this key
        for (let i = out.length - 1; i >= 0; i--) {
          const x = out[i];
          if (isObject(x) && deepEqual(x[mergeKey], key)) out.splice(i, 1);
        }
      }
      continue;
    }
    if (d === 'replace') {
      const rest = stripDirectives(e);
      if (idx >= 0) out[idx] = rest;
      else out.push(rest);
      continue;
    }
    if (idx >= 0) {
      const merged = mergeMap(out[idx] as Obj, e, items);
      if (merged === undefined) out.splice(idx, 1);
      else out[idx] = merged;
    } else {
      const merged = mergeMap({}, e, items);
      if (merged !== undefined) out.push(merged);
    }
  }
  return out;
}

/**
 * `$setElementOrder`: elements named by the order list come in its order; elements only the
 * server has keep their relative position, placed before the first ordered element that
 * followed them in the original.
 */
function applyOrder(list: unknown[], order: unknown[], mergeKey: string | undefined): unknown[] {
  const keyOf = (x: unknown): unknown => (mergeKey !== undefined && isObject(x) ? x[mergeKey] : x);
  const rank = (x: unknown): number =>
    order.findIndex((o) => deepEqual(mergeKey !== undefined && isObject(o) ? o[mergeKey] : o, keyOf(x)));
  const ordered = list.filter((x) => rank(x) >= 0).sort((a, b) => rank(a) - rank(b));
  const serverOnly = list.map((x, i) => ({ x, i })).filter(({ x }) => rank(x) < 0);
  if (serverOnly.length === 0) return ordered;
  const out: unknown[] = [];
  let s = 0;
  for (const x of ordered) {
    const pos = list.indexOf(x);
    while (s < serverOnly.length && serverOnly[s]!.i < pos) out.push(serverOnly[s++]!.x);
    out.push(x);
  }
  while (s < serverOnly.length) out.push(serverOnly[s++]!.x);
  return out;
}

/** Removes every `$…` directive key from a patch fragment (for values that replace wholesale). */
export function stripDirectives(v: Obj): Obj {
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('$')) continue;
    if (x === null) continue;
    out[k] = isObject(x)
      ? stripDirectives(x)
      : Array.isArray(x)
        ? x.map((e) => (isObject(e) ? stripDirectives(e) : e))
        : x;
  }
  return out;
}
