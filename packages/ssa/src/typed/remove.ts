import type { FieldSet } from '../fieldpath/field-set.js';
import { PathElement } from '../fieldpath/path-element.js';
import { isMap, type JsonMap, setKey } from '../fieldpath/value.js';
import { type Atom, mapField, shapeFor } from './atom.js';
import { listItemElement } from './path-steps.js';

/**
 * The value without the fields in `items` (upstream `TypedValue.RemoveItems`): a member path
 * removes the whole value there, a path that only passes through an element descends into it.
 * Atomic values are never entered. As upstream, a container left empty by the removal becomes
 * `null`, an emptied list item too (the field manager drops nulls of non-nullable fields before
 * the object is stored, as the API server's decoding does). Returns undefined when nothing is left.
 */
export function removeItems(value: unknown, items: FieldSet, atom: Atom): unknown {
  if (items.isEmpty()) return value;
  return remove(value, items, atom);
}

function remove(v: unknown, items: FieldSet, a: Atom): unknown {
  const shape = shapeFor(a, v);
  if (shape === 0) return v;
  if (shape === 1) {
    if (!Array.isArray(v)) return v;
    const l = a.list as NonNullable<Atom['list']>;
    if (v.length === 0 || l.type === 'atomic') return v;
    const elem = l.elem();
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      let pe: PathElement;
      try {
        pe = listItemElement(l, i, item, []);
      } catch {
        out.push(item);
        continue;
      }
      const n = items.node(pe.id);
      if (n === undefined) out.push(item);
      else if (n.member) continue;
      else if (n.child !== undefined) {
        const r = remove(item, n.child, elem);
        if (r !== undefined) out.push(r);
      } else out.push(item);
    }
    return out.length > 0 ? out : undefined;
  }
  if (!isMap(v)) return v;
  const m = a.map as NonNullable<Atom['map']>;
  if (m.atomic) return v;
  const out: JsonMap = {};
  let any = false;
  let emptyIn = true;
  for (const k in v) {
    emptyIn = false;
    const val = v[k];
    const n = items.node(PathElement.field(k).id);
    if (n === undefined) {
      setKey(out, k, val);
      any = true;
      continue;
    }
    if (n.member) continue;
    if (n.child !== undefined) {
      const r = remove(val, n.child, mapField(m, k));
      setKey(out, k, r === undefined ? null : r);
      any = true;
    } else {
      setKey(out, k, val);
      any = true;
    }
  }
  if (emptyIn) return v;
  return any ? out : undefined;
}
