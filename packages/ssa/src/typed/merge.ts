import { isMap, type JsonMap, setKey } from '../fieldpath/value.js';
import { type Atom, listSides, mapField, shapeFor } from './atom.js';
import { type PathStep, pairListItems } from './path-steps.js';

/**
 * Merges `rhs` (an apply intent) into `lhs` (the live object), as upstream's `TypedValue.Merge`:
 * intent values win at every leaf (scalars, atomic lists/maps/structs, and containers empty on
 * both sides); granular maps merge key by key (live key order, then new keys in intent order);
 * list-maps and sets merge by key (live order kept, new items appended in intent order);
 * `null` for a granular container keeps the live content. Containers are rebuilt; atomic values
 * are shared with the inputs. Throws `TypedValueError` for duplicate keys in the intent.
 */
export function merge(lhs: unknown, rhs: unknown, atom: Atom): unknown {
  return new MergeWalker().walk(lhs, rhs, atom);
}

class MergeWalker {
  private readonly path: PathStep[] = [];

  walk(l: unknown, r: unknown, a: Atom): unknown {
    const ls = l === undefined ? -1 : shapeFor(a, l);
    const rs = r === undefined ? -1 : shapeFor(a, r);
    if (ls !== -1 && rs !== -1 && ls !== rs) return r;
    const shape = ls === -1 ? rs : ls;
    if (shape === 0) return r !== undefined ? r : l;
    if (shape === 1) return this.list(l, r, a);
    return this.map(l, r, a);
  }

  private list(l: unknown, r: unknown, a: Atom): unknown {
    const { la, ra, lt, whole } = listSides(l, r, a);
    if (whole) {
      return r !== undefined ? r : l;
    }
    const elem = lt.elem();
    const out: unknown[] = [];
    pairListItems(lt, la, ra, this.path, true, (pe, lv, rv) => {
      this.path.push(pe);
      const v = this.walk(lv, rv, elem);
      this.path.pop();
      if (v !== undefined) out.push(v);
    });
    return out.length > 0 ? out : undefined;
  }

  private map(l: unknown, r: unknown, a: Atom): unknown {
    const lm = isMap(l) ? l : undefined;
    const rm = isMap(r) ? r : undefined;
    const m = a.map as NonNullable<Atom['map']>;
    if (m.atomic || ((lm === undefined || isEmpty(lm)) && (rm === undefined || isEmpty(rm)))) {
      return r !== undefined ? r : l;
    }
    const out: JsonMap = {};
    let any = false;
    if (lm !== undefined) {
      for (const k in lm) {
        const lv = lm[k];
        if (lv === undefined) continue;
        const rv = rm !== undefined && Object.hasOwn(rm, k) ? rm[k] : undefined;
        const fa = mapField(m, k);
        // Fast path: a scalar only on the live side is kept as is.
        const v =
          rv === undefined && (typeof lv !== 'object' || lv === null) ? lv : this.descend(k, lv, rv, fa);
        if (v !== undefined) {
          setKey(out, k, v);
          any = true;
        }
      }
    }
    if (rm !== undefined) {
      for (const k in rm) {
        const rv = rm[k];
        if (rv === undefined || (lm !== undefined && Object.hasOwn(lm, k) && lm[k] !== undefined)) continue;
        const v = typeof rv !== 'object' || rv === null ? rv : this.descend(k, undefined, rv, mapField(m, k));
        if (v !== undefined) {
          setKey(out, k, v);
          any = true;
        }
      }
    }
    return any ? out : undefined;
  }

  private descend(k: string, l: unknown, r: unknown, a: Atom): unknown {
    this.path.push(k);
    const v = this.walk(l, r, a);
    this.path.pop();
    return v;
  }
}

function isEmpty(o: JsonMap): boolean {
  for (const _ in o) return false;
  return true;
}
