import { FieldSet } from '../fieldpath/field-set.js';
import { formatPath, PathElement } from '../fieldpath/path-element.js';
import { isMap, type JsonMap } from '../fieldpath/value.js';
import { type Atom, mapField, shapeFor } from './atom.js';
import { listItemElement } from './path-steps.js';
import { TypedValueError } from './typed-value-error.js';

/**
 * The set of fields a value sets (upstream `TypedValue.ToFieldSet`): every scalar, every atomic
 * list/map/struct as one leaf, every list item as a member (so FieldsV1 shows `"."` when it has
 * fields), map keys that are not declared struct fields as members, and empty or null values as
 * members. Throws `TypedValueError` for list items that cannot be identified (missing key fields,
 * duplicates in a set or list-map).
 */
export function toFieldSet(value: unknown, atom: Atom): FieldSet {
  const out = FieldSet.builder();
  const stack: PathElement[] = [];
  const shape = shapeFor(atom, value);
  if (shape === 2 && !(atom.map as NonNullable<Atom['map']>).atomic && isMap(value))
    visitMapItems(value, atom, out, stack);
  else if (shape === 1 && atom.list?.type !== 'atomic' && Array.isArray(value))
    visitListItems(value, atom, out, stack);
  return out;
}

function visit(v: unknown, a: Atom, parent: FieldSet, pe: PathElement, stack: PathElement[]): void {
  const shape = shapeFor(a, v);
  if (shape === 0) {
    parent.insertMember(pe);
    return;
  }
  if (shape === 1) {
    if ((a.list as NonNullable<Atom['list']>).type === 'atomic') {
      parent.insertMember(pe);
      return;
    }
    if (!Array.isArray(v) || v.length === 0) return;
    const child = FieldSet.builder();
    stack.push(pe);
    visitListItems(v, a, child, stack);
    stack.pop();
    parent.setChild(pe, child);
    return;
  }
  const m = a.map as NonNullable<Atom['map']>;
  if (m.atomic) {
    parent.insertMember(pe);
    return;
  }
  if (!isMap(v)) return;
  const child = FieldSet.builder();
  stack.push(pe);
  visitMapItems(v, a, child, stack);
  stack.pop();
  parent.setChild(pe, child);
}

function visitListItems(v: unknown[], a: Atom, into: FieldSet, stack: PathElement[]): void {
  const l = a.list as NonNullable<Atom['list']>;
  const elem = l.elem();
  const seen = l.type === 'atomic' ? undefined : new Set<string>();
  for (let i = 0; i < v.length; i++) {
    const item = v[i];
    const pe = listItemElement(l, i, item, stack);
    if (seen !== undefined) {
      if (seen.has(pe.id))
        throw new TypedValueError(formatPath(stack), `duplicate entries for key ${pe.toString()}`);
      seen.add(pe.id);
    }
    visit(item, elem, into, pe, stack);
    into.insertMember(pe);
  }
}

function visitMapItems(v: JsonMap, a: Atom, into: FieldSet, stack: PathElement[]): void {
  const m = a.map as NonNullable<Atom['map']>;
  for (const key in v) {
    const val = v[key];
    if (val === undefined) continue;
    const pe = PathElement.field(key);
    visit(val, mapField(m, key), into, pe, stack);
    if (val === null || (isMap(val) && isEmptyObject(val)) || !m.isField(key)) into.insertMember(pe);
  }
}

function isEmptyObject(o: JsonMap): boolean {
  for (const _ in o) return false;
  return true;
}
