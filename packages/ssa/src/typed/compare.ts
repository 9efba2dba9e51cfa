import { jsonEqual } from '@orchard/meta/internal';
import { FieldSet } from '../fieldpath/field-set.js';
import { isMap, type JsonMap } from '../fieldpath/value.js';
import { type Atom, listSides, mapField, shapeFor } from './atom.js';
import { LazyItem, materialize, type PathStep, pairListItems, sameListItem } from './path-steps.js';

/** What changed between two values of one type (upstream `typed.Comparison`). */
export interface Comparison {
  /** Leaves (scalars, atomic values) present on both sides with different values. */
  readonly modified: FieldSet;
  /** Paths only in the new value: leaves, and the struct fields / list items / map keys themselves. */
  readonly added: FieldSet;
  /** Paths only in the old value, likewise. */
  readonly removed: FieldSet;
}

/**
 * Compares `lhs` (old) with `rhs` (new) under the schema, as upstream's `TypedValue.Compare`:
 * granular maps and non-atomic lists are walked (list items matched by key, set value or index),
 * empty or null containers on both sides are compared as leaves to keep the empty/null
 * distinction.
 */
export function compare(lhs: unknown, rhs: unknown, atom: Atom): Comparison {
  const w = new CompareWalker();
  w.walk(lhs, rhs, atom);
  return { modified: w.modified, added: w.added, removed: w.removed };
}

/** True when nothing changed. */
export function isSame(c: Comparison): boolean {
  return c.modified.isEmpty() && c.added.isEmpty() && c.removed.isEmpty();
}

class CompareWalker {
  readonly modified = FieldSet.builder();
  readonly added = FieldSet.builder();
  readonly removed = FieldSet.builder();
  private readonly path: PathStep[] = [];

  /** `undefined` = absent on that side (distinct from an explicit null). */
  walk(l: unknown, r: unknown, a: Atom): void {
    const ls = l === undefined ? -1 : shapeFor(a, l);
    const rs = r === undefined ? -1 : shapeFor(a, r);
    const shape = ls === -1 ? rs : rs === -1 || rs === ls ? ls : -2;
    let leaf: boolean;
    if (shape === -2) {
      // The value changed shape (e.g. an untyped value going from a string to a map).
      this.leaf(l, r);
      leaf = true;
    } else if (shape === 0) {
      this.leaf(l, r);
      leaf = true;
    } else if (shape === 1) leaf = this.list(l, r, a);
    else leaf = this.map(l, r, a);
    if (!leaf && this.path.length > 0) {
      if (l === undefined) this.added.insertPath(materialize(this.path));
      else if (r === undefined) this.removed.insertPath(materialize(this.path));
    }
  }

  private leaf(l: unknown, r: unknown): void {
    if (this.path.length === 0) return;
    if (l === undefined) this.added.insertPath(materialize(this.path));
    else if (r === undefined) this.removed.insertPath(materialize(this.path));
    else if (!jsonEqual(l, r)) this.modified.insertPath(materialize(this.path));
  }

  /** Returns true when handled as a leaf. */
  private list(l: unknown, r: unknown, a: Atom): boolean {
    const { la, ra, lt, whole } = listSides(l, r, a);
    if (whole) {
      this.leaf(l, r);
      return true;
    }
    const elem = lt.elem();
    if (la !== undefined && ra !== undefined && la.length === ra.length) {
      // Fast path: the same entries in the same order (the usual update) pair up by position.
      let same = true;
      for (let i = 0; i < la.length && same; i++) same = sameListItem(lt, la[i], ra[i]);
      if (same) {
        for (let i = 0; i < la.length; i++) {
          this.path.push(new LazyItem(lt, i, la[i]));
          this.walk(la[i], ra[i], elem);
          this.path.pop();
        }
        return false;
      }
    }
    pairListItems(lt, la, ra, this.path, false, (pe, lv, rv) => {
      this.path.push(pe);
      this.walk(lv, rv, elem);
      this.path.pop();
    });
    return false;
  }

  private map(l: unknown, r: unknown, a: Atom): boolean {
    const lm = isMap(l) ? l : undefined;
    const rm = isMap(r) ? r : undefined;
    const m = a.map as NonNullable<Atom['map']>;
    if (m.atomic || ((lm === undefined || isEmpty(lm)) && (rm === undefined || isEmpty(rm)))) {
      this.leaf(l, r);
      return true;
    }
    if (lm !== undefined) {
      for (const k in lm) {
        const lv = lm[k];
        if (lv === undefined) continue;
        this.path.push(k);
        this.walk(lv, rm !== undefined && Object.hasOwn(rm, k) ? rm[k] : undefined, mapField(m, k));
        this.path.pop();
      }
    }
    if (rm !== undefined) {
      for (const k in rm) {
        if (lm !== undefined && Object.hasOwn(lm, k) && lm[k] !== undefined) continue;
        const rv = rm[k];
        if (rv === undefined) continue;
        this.path.push(k);
        this.walk(undefined, rv, mapField(m, k));
        this.path.pop();
      }
    }
    return false;
  }
}

function isEmpty(o: JsonMap): boolean {
  for (const _ in o) return false;
  return true;
}
