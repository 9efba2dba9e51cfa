import { isMap, type JsonMap, setKey } from '../fieldpath/value.js';
import { type Atom, deducedAtom, mapField } from './atom.js';

/**
 * The value without nulls the API server would not store: a null in a declared struct field or
 * in a typed map value whose schema is not nullable (upstream: Go decoding drops them for built-in
 * kinds; structural pruning for custom resources). Nulls inside deduced values are kept. Returns
 * the same value when there is none; otherwise rebuilds only the containers on the way.
 */
export function dropNulls(v: unknown, a: Atom): unknown {
  if (Array.isArray(v)) {
    const l = a.list;
    if (l === undefined || l.type === 'atomic') return v;
    const elem = l.elem();
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x === null || typeof x !== 'object') continue;
      const r = dropNulls(x, elem);
      if (r !== x) {
        out ??= [...v];
        out[i] = r;
      }
    }
    return out ?? v;
  }
  if (!isMap(v) || a.map === undefined || a.map.atomic) return v;
  const m = a.map;
  let out: JsonMap | undefined;
  for (const k in v) {
    const x = v[k];
    const fa = mapField(m, k);
    if (x === null) {
      if ((m.isField(k) || (m.elem !== undefined && m.elem !== deducedAtom)) && !fa.nullable) {
        out ??= { ...v };
        delete out[k];
      }
      continue;
    }
    if (typeof x !== 'object') continue;
    const r = dropNulls(x, fa);
    if (r !== x) {
      out ??= { ...v };
      setKey(out, k, r);
    }
  }
  return out ?? v;
}
