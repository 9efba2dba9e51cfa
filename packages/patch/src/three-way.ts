/**
 * Patch creation for client-side apply: the two-way diff of two objects as a strategic merge
 * patch, and the three-way patch that takes `current` (live) to `modified` (the new manifest)
 * while deleting only what `original` (the last applied manifest) had and `modified` dropped.
 */
import { cloneJson, getOwn, isJsonObject, jsonEqual, setOwn } from '@orchard/meta/internal';
import type { StructuralSchema } from '@orchard/schema';
import { canonical } from './canonical.js';
import { directives, fieldSchema, listStrategy } from './strategic.js';

type Obj = Record<string, unknown>;

/** Which changes the three-way diff emits (deletions, changes and additions, `$setElementOrder`). */
export interface DiffOptions {
  /** Do not emit deletions (nulls, `$patch: delete`, `$deleteFromPrimitiveList`). */
  ignoreDeletions?: boolean;
  /** Emit only deletions. */
  ignoreChangesAndAdditions?: boolean;
  /** Emit `$setElementOrder/<field>` for merged lists that change (default true). */
  setElementOrder?: boolean;
}

/**
 * The strategic merge patch taking `from` to `to`. Without a schema (custom resources) the
 * result is a plain JSON merge patch: lists are replaced whole and no directive appears.
 */
export function createTwoWayMergePatch(
  from: Obj,
  to: Obj,
  schema?: StructuralSchema,
  options: DiffOptions = {},
): Obj {
  return diffMaps(from, to, schema, { setElementOrder: true, ...options });
}

/**
 * The patch client-side apply sends: changes and additions from `current` to `modified`, plus
 * deletions of what `original` had and `modified` no longer has. Fields only the server set
 * (present in `current`, absent from both `original` and `modified`) are left alone.
 */
export function createThreeWayMergePatch(
  original: Obj | undefined,
  modified: Obj,
  current: Obj,
  schema?: StructuralSchema,
): Obj {
  const delta = diffMaps(current, modified, schema, { ignoreDeletions: true, setElementOrder: true });
  const deletions = diffMaps(original ?? {}, modified, schema, {
    ignoreChangesAndAdditions: true,
    setElementOrder: true,
  });
  return combine(deletions, delta, schema);
}

function diffMaps(from: Obj, to: Obj, schema: StructuralSchema | undefined, o: DiffOptions): Obj {
  const patch: Obj = {};
  const noSchema = schema === undefined;
  for (const [k, tv] of Object.entries(to)) {
    const fv = getOwn(from, k);
    const sub = fieldSchema(schema, k);
    if (fv === undefined) {
      if (!o.ignoreChangesAndAdditions) setOwn(patch, k, cloneJson(tv));
      continue;
    }
    if (isJsonObject(fv) && isJsonObject(tv)) {
      const d = diffMaps(fv, tv, sub, o);
      if (Object.keys(d).length > 0) setOwn(patch, k, d);
      continue;
    }
    if (Array.isArray(fv) && Array.isArray(tv) && !noSchema) {
      diffLists(patch, k, fv, tv, sub, o);
      continue;
    }
    if (!jsonEqual(fv, tv) && !o.ignoreChangesAndAdditions) setOwn(patch, k, cloneJson(tv));
  }
  if (!o.ignoreDeletions) {
    for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) setOwn(patch, k, null);
  }
  if (
    schema?.patchStrategy?.split(',').includes('retainKeys') &&
    Object.keys(patch).length > 0 &&
    !o.ignoreChangesAndAdditions
  ) {
    patch[directives.retainKeys] = Object.keys(to).sort();
  }
  return patch;
}

function diffLists(
  patch: Obj,
  field: string,
  from: unknown[],
  to: unknown[],
  schema: StructuralSchema | undefined,
  o: DiffOptions,
): void {
  const { merge, mergeKey } = listStrategy(schema);
  if (!merge) {
    if (!jsonEqual(from, to) && !o.ignoreChangesAndAdditions) setOwn(patch, field, cloneJson(to));
    return;
  }
  const scalar = mergeKey === undefined || [...from, ...to].every((x) => !isJsonObject(x));
  let changed = false;
  if (scalar) {
    const inFrom = new Set(from.map(canonical));
    const inTo = new Set(to.map(canonical));
    const added = to.filter((x) => !inFrom.has(canonical(x)));
    const removed = from.filter((x) => !inTo.has(canonical(x)));
    if (added.length > 0 && !o.ignoreChangesAndAdditions) {
      setOwn(patch, field, cloneJson(added));
      changed = true;
    }
    if (removed.length > 0 && !o.ignoreDeletions) {
      patch[`${directives.deleteFromPrimitiveList}${field}`] = cloneJson(removed);
      changed = true;
    }
    const orderChanged = !changed && !o.ignoreChangesAndAdditions && !jsonEqual(from, to);
    if ((changed || orderChanged) && o.setElementOrder)
      patch[`${directives.setElementOrder}${field}`] = cloneJson(to);
    return;
  }
  const key = mergeKey!;
  const items = schema?.items;
  const byKey = (list: unknown[]) => {
    const m = new Map<string, Obj>();
    for (const x of list) if (isJsonObject(x) && !m.has(canonical(x[key]))) m.set(canonical(x[key]), x);
    return m;
  };
  const fromByKey = byKey(from);
  const toByKey = byKey(to);
  const find = (m: Map<string, Obj>, k: unknown) => m.get(canonical(k));
  const elems: Obj[] = [];
  for (const t of to) {
    if (!isJsonObject(t)) continue;
    const f = find(fromByKey, t[key]);
    if (!f) {
      if (!o.ignoreChangesAndAdditions) elems.push(cloneJson(t));
      continue;
    }
    const d = diffMaps(f, t, items, o);
    if (Object.keys(d).length > 0) elems.push({ [key]: cloneJson(t[key]), ...d });
  }
  // Elements added or changed; deletions alone do not make a `$setElementOrder` (as upstream).
  const changedOrAdded = elems.length;
  if (!o.ignoreDeletions) {
    for (const f of from) {
      if (isJsonObject(f) && !find(toByKey, f[key]))
        elems.push({ [key]: cloneJson(f[key]), [directives.patch]: 'delete' });
    }
  }
  const fromKeys = from.filter(isJsonObject).map((x) => x[key]);
  const toKeys = to.filter(isJsonObject).map((x) => x[key]);
  const commonFrom = fromKeys.filter((k) => toByKey.has(canonical(k)));
  const commonTo = toKeys.filter((k) => fromByKey.has(canonical(k)));
  const reordered = !o.ignoreChangesAndAdditions && !jsonEqual(commonFrom, commonTo);
  if (elems.length > 0) setOwn(patch, field, elems);
  if ((changedOrAdded > 0 || reordered) && o.setElementOrder) {
    patch[`${directives.setElementOrder}${field}`] = to
      .filter(isJsonObject)
      .map((x) => ({ [key]: cloneJson(x[key]) }));
  }
}

/** Combines a deletions patch and a delta patch into one (the delta wins on conflicts). */
function combine(a: Obj, b: Obj, schema: StructuralSchema | undefined): Obj {
  const out: Obj = { ...a };
  for (const [k, bv] of Object.entries(b)) {
    const av = getOwn(out, k);
    if (isJsonObject(av) && isJsonObject(bv)) {
      setOwn(out, k, combine(av, bv, fieldSchema(schema, k)));
    } else if (Array.isArray(av) && Array.isArray(bv)) {
      if (k.startsWith(directives.setElementOrder) || k === directives.retainKeys) {
        setOwn(out, k, bv);
        continue;
      }
      const { mergeKey } = listStrategy(fieldSchema(schema, k));
      if (mergeKey !== undefined && [...av, ...bv].every(isJsonObject)) {
        const merged = [...av] as Obj[];
        const at = new Map<string, number>();
        merged.forEach((x, i) => {
          if (!at.has(canonical(x[mergeKey]))) at.set(canonical(x[mergeKey]), i);
        });
        for (const e of bv as Obj[]) {
          const i = at.get(canonical(e[mergeKey]));
          if (i !== undefined) merged[i] = combine(merged[i]!, e, fieldSchema(schema, k)?.items);
          else {
            at.set(canonical(e[mergeKey]), merged.length);
            merged.push(e);
          }
        }
        setOwn(out, k, merged);
      } else {
        const merged = [...av];
        const seen = new Set(av.map(canonical));
        for (const e of bv) {
          if (!seen.has(canonical(e))) merged.push(e);
          seen.add(canonical(e));
        }
        setOwn(out, k, merged);
      }
    } else {
      setOwn(out, k, bv);
    }
  }
  return out;
}
