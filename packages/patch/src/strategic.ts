/**
 * Strategic merge patch (`application/strategic-merge-patch+json`): a merge patch that reads the
 * schema's `patchStrategy`/`patchMergeKey` so lists of objects merge by key, lists of scalars
 * merge as sets, and the directives `$patch` (replace/delete/merge), `$retainKeys`,
 * `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>` apply.
 */
import { cloneJson, getOwn, isJsonObject, jsonEqual, setOwn } from '@orchard/meta/internal';
import { fieldSchema, type StructuralSchema } from '@orchard/schema';
import { canonical } from './canonical.js';
import { PatchError } from './errors.js';

type Obj = Record<string, unknown>;

/**
 * The strategic-merge-patch directive keys (`$patch`, `$retainKeys`, `$setElementOrder/…`,
 * `$deleteFromPrimitiveList/…`).
 */
export const directives = {
  patch: '$patch',
  retainKeys: '$retainKeys',
  deleteFromPrimitiveList: '$deleteFromPrimitiveList/',
  setElementOrder: '$setElementOrder/',
} as const;

/** A client value in a message: strings as they are (Go's %s), anything else as JSON (never String(), which runs the value's own toString). */
function printable(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export { fieldSchema } from '@orchard/schema';

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
  if (!isJsonObject(patch))
    throw new PatchError('Malformed', 'invalid JSON document: a strategic merge patch must be a JSON object');
  const base = isJsonObject(original) ? cloneJson(original) : {};
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
        `Unknown patch type: ${printable(directive)} in map: ${JSON.stringify(patch)}`,
      );
  }

  const retain = patch[directives.retainKeys];
  if (retain !== undefined) {
    if (!Array.isArray(retain) || !retain.every((k) => typeof k === 'string'))
      throw new PatchError(
        'Malformed',
        `invalid patch: $retainKeys must be a list of strings, got ${JSON.stringify(retain)}`,
      );
    const keep = new Set<string>(retain);
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

  // $setElementOrder/<field>: merge that list with the patch's list now, then order it
  // ($setElementOrder first, then the patch list, then the live list).
  const ordered = new Set<string>();
  for (const [k, order] of Object.entries(patch)) {
    if (!k.startsWith(directives.setElementOrder)) continue;
    const field = k.slice(directives.setElementOrder.length);
    if (!Array.isArray(order)) throw new PatchError('Malformed', `invalid patch: ${k} must be a list`);
    const sub = fieldSchema(schema, field);
    const { mergeKey } = listStrategy(sub);
    const liveValue = getOwn(original, field);
    const patchValue = getOwn(patch, field);
    const live = Array.isArray(liveValue) ? liveValue : undefined;
    const patchList = Array.isArray(patchValue) ? patchValue : undefined;
    checkOrderMatchesPatch(patchList, order, mergeKey, k);
    let merged: unknown[];
    if (live && patchList) merged = mergeList(live, patchList, sub, field, false);
    else if (live) merged = live;
    else if (patchList) merged = mergeList([], patchList, sub, field, true);
    else continue;
    const keyOf = keyFn(mergeKey);
    const orderKeys = new Set(order.map((o) => canonical(keyOf(o))));
    const inOrder = (x: unknown) => orderKeys.has(canonical(keyOf(x)));
    setOwn(
      original,
      field,
      normalizeElementOrder(
        merged.filter(inOrder),
        merged.filter((x) => !inOrder(x)),
        order,
        live ?? [],
        keyOf,
      ),
    );
    ordered.add(field);
  }

  // $deleteFromPrimitiveList/<field> before the lists themselves, so additions in the same patch survive.
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(directives.deleteFromPrimitiveList)) continue;
    const field = k.slice(directives.deleteFromPrimitiveList.length);
    if (!Array.isArray(v)) throw new PatchError('Malformed', `invalid patch: ${k} must be a list`);
    const cur = getOwn(original, field);
    const gone = new Set(v.map(canonical));
    if (Array.isArray(cur))
      setOwn(
        original,
        field,
        cur.filter((x) => !gone.has(canonical(x))),
      );
  }

  for (const [k, pv] of Object.entries(patch)) {
    if (k === directives.patch || k === directives.retainKeys || ordered.has(k)) continue;
    if (k.startsWith(directives.deleteFromPrimitiveList) || k.startsWith(directives.setElementOrder))
      continue;
    if (pv === null) {
      delete original[k];
      continue;
    }
    const sub = fieldSchema(schema, k);
    const ov = getOwn(original, k);
    if (isJsonObject(pv)) {
      if (strategies(sub).includes('replace')) {
        setOwn(original, k, stripDirectives(pv));
        continue;
      }
      const merged = mergeMap(isJsonObject(ov) ? ov : {}, pv, sub);
      if (merged === undefined) delete original[k];
      else setOwn(original, k, merged);
    } else if (Array.isArray(pv)) {
      setOwn(original, k, mergeList(Array.isArray(ov) ? ov : [], pv, sub, k, !Array.isArray(ov)));
    } else {
      setOwn(original, k, pv);
    }
  }
  return original;
}

/** The identity of a list element: its merge key's value (maps) or itself (scalars). */
function keyFn(mergeKey: string | undefined): (x: unknown) => unknown {
  return (x) => (mergeKey !== undefined && isJsonObject(x) ? x[mergeKey] : x);
}

/** The elements of the patch list (deletions aside) must appear in `$setElementOrder` in the same order. */
function checkOrderMatchesPatch(
  patchList: unknown[] | undefined,
  order: unknown[],
  mergeKey: string | undefined,
  directive: string,
): void {
  if (!patchList || patchList.length === 0 || order.length === 0) return;
  const keyOf = keyFn(mergeKey);
  const items = patchList.filter((e) => !(isJsonObject(e) && directives.patch in e));
  let p = 0;
  for (let o = 0; o < order.length && p < items.length; o++) {
    if (jsonEqual(keyOf(items[p]), keyOf(order[o]))) p++;
  }
  if (p < items.length) {
    throw new PatchError(
      'Malformed',
      `The order in patch list:\n${JSON.stringify(patchList)}\n doesn't match ${directive} list:\n${JSON.stringify(order)}`,
    );
  }
}

/**
 * Upstream's element order for a merged list: the patch's elements in `patchOrder`, the
 * server-only elements in their live order, interleaved by live position — a server-only element
 * goes before a patch element only when both are live and it came first. New elements therefore
 * come before the server-only elements that follow no patched element.
 */
function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  keyOf: (x: unknown) => unknown,
): unknown[] {
  const positions = (list: unknown[]) => {
    const m = new Map<string, number>();
    list.forEach((o, i) => {
      const k = canonical(keyOf(o));
      if (!m.has(k)) m.set(k, i);
    });
    return (x: unknown) => m.get(canonical(keyOf(x))) ?? -1;
  };
  const inPatchOrder = positions(patchOrder);
  const inServerOrder = positions(serverOrder);
  const byOrder = (index: (x: unknown) => number) => (a: unknown, b: unknown) => {
    const ia = index(a);
    const ib = index(b);
    return ia >= 0 && ib >= 0 ? ia - ib : 0;
  };
  const right = [...patchItems].sort(byOrder(inPatchOrder));
  const left = [...serverOnly].sort(byOrder(inServerOrder));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = inServerOrder(left[i]);
      const ri = inServerOrder(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function mergeList(
  original: unknown[],
  patch: unknown[],
  schema: StructuralSchema | undefined,
  field: string,
  fresh: boolean,
): unknown[] {
  const { merge, mergeKey } = listStrategy(schema);
  if (!merge) return patch.map((e) => (isJsonObject(e) ? stripDirectives(e) : cloneJson(e)));
  if (original.length === 0 && patch.length === 0) return fresh ? [] : original;
  const sample = original.length > 0 ? original[0] : patch[0];

  if (!isJsonObject(sample)) {
    // A set of scalars: union without duplicates, then upstream's order.
    const merged: unknown[] = [];
    const seen = new Set<string>();
    for (const e of [...original, ...patch]) {
      if (isJsonObject(e))
        throw new PatchError('Malformed', `invalid patch: list ${field} mixes scalars and maps`);
      const k = canonical(e);
      if (!seen.has(k)) merged.push(e);
      seen.add(k);
    }
    const patchKeys = new Set(patch.map(canonical));
    const inPatch = (x: unknown) => patchKeys.has(canonical(x));
    return normalizeElementOrder(
      merged.filter(inPatch),
      merged.filter((x) => !inPatch(x)),
      patch,
      original,
      (x) => x,
    );
  }

  if (mergeKey === undefined) {
    throw new PatchError('Malformed', `cannot merge lists without merge key for ${field}`);
  }
  const keyOf = keyFn(mergeKey);
  const items = schema?.items;
  // Special elements first: deletions by key, `$patch: replace` for the whole list.
  const deleted = new Set<string>();
  const plain: Obj[] = [];
  let replace = false;
  for (const e of patch) {
    if (!isJsonObject(e)) {
      throw new PatchError(
        'Malformed',
        `invalid patch: list ${field} with merge key ${mergeKey} holds a non-map element ${JSON.stringify(e)}`,
      );
    }
    const d = e[directives.patch];
    if (d === undefined) {
      plain.push(e);
    } else if (d === 'delete') {
      if (!(mergeKey in e))
        throw new PatchError(
          'Malformed',
          `map: ${JSON.stringify(e)} does not contain declared merge key: ${mergeKey}`,
        );
      deleted.add(canonical(e[mergeKey]));
    } else if (d === 'replace') {
      replace = true;
    } else if (d === 'merge') {
      throw new PatchError('Malformed', 'merging lists cannot yet be specified in the patch');
    } else {
      throw new PatchError('Malformed', `Unknown patch type: ${printable(d)} in map: ${JSON.stringify(e)}`);
    }
  }
  if (replace) return plain.map((e) => stripDirectives(e));
  const live =
    deleted.size === 0
      ? [...original]
      : original.filter((x) => !(isJsonObject(x) && deleted.has(canonical(x[mergeKey]))));

  // Position of each key in `merged`, so merging two long lists stays linear.
  const merged = [...live];
  let at = new Map<string, number>();
  const reindex = () => {
    at = new Map();
    merged.forEach((x, i) => {
      if (!isJsonObject(x)) return;
      const k = canonical(x[mergeKey]);
      if (!at.has(k)) at.set(k, i);
    });
  };
  reindex();
  for (const e of plain) {
    if (!(mergeKey in e)) {
      throw new PatchError(
        'Malformed',
        `map: ${JSON.stringify(e)} does not contain declared merge key: ${mergeKey}`,
      );
    }
    const idx = at.get(canonical(e[mergeKey])) ?? -1;
    if (idx >= 0) {
      const m = mergeMap(merged[idx] as Obj, e, items);
      if (m === undefined) {
        merged.splice(idx, 1);
        reindex();
      } else merged[idx] = m;
    } else {
      const m = mergeMap({}, e, items);
      if (m !== undefined) {
        at.set(canonical(e[mergeKey]), merged.length);
        merged.push(m);
      }
    }
  }
  const patchKeys = new Set(plain.map((p) => canonical(p[mergeKey])));
  const inPatch = (x: unknown) => patchKeys.has(canonical(keyOf(x)));
  return normalizeElementOrder(
    merged.filter(inPatch),
    merged.filter((x) => !inPatch(x)),
    plain,
    live,
    keyOf,
  );
}

/** Removes every `$…` directive key from a patch fragment (for values that replace wholesale). */
export function stripDirectives(v: Obj): Obj {
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('$')) continue;
    if (x === null) continue;
    setOwn(
      out,
      k,
      isJsonObject(x)
        ? stripDirectives(x)
        : Array.isArray(x)
          ? x.map((e) => (isJsonObject(e) ? stripDirectives(e) : e))
          : x,
    );
  }
  return out;
}
