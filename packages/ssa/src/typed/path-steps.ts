import { formatPath, PathElement } from '../fieldpath/path-element.js';
import { canonicalJson, isMap, type JsonMap } from '../fieldpath/value.js';
import type { ListAtom } from './atom.js';
import { TypedValueError } from './typed-value-error.js';

/**
 * Pairs the items of the two sides of a granular list by their path element, in upstream's order:
 * the left side's items (a repeated one once), then those only on the right, in right order. A key
 * repeated on the right throws when `strictRight` (merge); otherwise its last value wins (compare).
 */
export function pairListItems(
  l: ListAtom,
  left: readonly unknown[] | undefined,
  right: readonly unknown[] | undefined,
  at: readonly PathStep[],
  strictRight: boolean,
  visit: (pe: PathElement, lv: unknown, rv: unknown) => void,
): void {
  const rItems = new Map<string, unknown>();
  const rOrder: PathElement[] = [];
  if (right !== undefined) {
    for (let i = 0; i < right.length; i++) {
      const pe = listItemElement(l, i, right[i], at);
      if (rItems.has(pe.id)) {
        if (strictRight)
          throw new TypedValueError(formatSteps(at), `duplicate entries for key ${pe.toString()}`);
      } else rOrder.push(pe);
      rItems.set(pe.id, right[i]);
    }
  }
  const seen = new Set<string>();
  if (left !== undefined) {
    for (let i = 0; i < left.length; i++) {
      const pe = listItemElement(l, i, left[i], at);
      if (seen.has(pe.id)) continue;
      seen.add(pe.id);
      visit(pe, left[i], rItems.get(pe.id));
    }
  }
  for (const pe of rOrder) if (!seen.has(pe.id)) visit(pe, undefined, rItems.get(pe.id));
}

/** The path element identifying a list item (upstream `listItemToPathElement`). */
export function listItemElement(
  l: ListAtom,
  index: number,
  item: unknown,
  at: readonly PathStep[],
): PathElement {
  if (l.type === 'map') {
    if (!isMap(item)) {
      throw new TypedValueError(
        formatSteps(at),
        item === null
          ? 'associative list with keys may not have a null element'
          : 'associative list with keys may not have non-map elements',
      );
    }
    const keys = l.sortedKeys;
    const fields: { name: string; value: unknown }[] = [];
    let id = 'k:{';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      let value: unknown;
      if (Object.hasOwn(item, k)) value = (item as JsonMap)[k];
      else {
        value = l.elem().map?.field(k)?.default;
        if (value === undefined)
          throw new TypedValueError(
            formatSteps(at),
            `associative list with keys has an element that omits key field "${k}" (and doesn't have default value)`,
          );
      }
      fields.push({ name: k, value });
      if (i > 0) id += ',';
      id += `${l.quotedKeys[i]}:${canonicalJson(value)}`;
    }
    return PathElement.keyWithId(`${id}}`, fields);
  }
  if (l.type === 'set') {
    if (item === null)
      throw new TypedValueError(
        formatSteps(at),
        "associative list without keys has an element that's an explicit null",
      );
    if (Array.isArray(item))
      throw new TypedValueError(formatSteps(at), 'not supported: associative list with lists as elements');
    if (typeof item === 'object')
      throw new TypedValueError(
        formatSteps(at),
        "associative list without keys has an element that's a map type",
      );
    return PathElement.value(item);
  }
  return PathElement.index(index);
}

/**
 * One step of a walker's current path, materialized only when a path is recorded or reported:
 * a field name, a path element, or a list item whose element is computed on demand.
 */
export type PathStep = PathElement | string | LazyItem;

/** A list item whose path element (`k:`/`v:`/`i:`) is computed only when needed. */
export class LazyItem {
  private pe: PathElement | undefined;
  constructor(
    readonly list: ListAtom,
    readonly index: number,
    readonly item: unknown,
  ) {}
  get element(): PathElement {
    this.pe ??= listItemElement(this.list, this.index, this.item, []);
    return this.pe;
  }
}

export function stepElement(s: PathStep): PathElement {
  return typeof s === 'string' ? PathElement.field(s) : s instanceof LazyItem ? s.element : s;
}

export function materialize(steps: readonly PathStep[]): PathElement[] {
  const out = new Array<PathElement>(steps.length);
  for (let i = 0; i < steps.length; i++) out[i] = stepElement(steps[i] as PathStep);
  return out;
}

export function formatSteps(steps: readonly PathStep[]): string {
  return formatPath(materialize(steps));
}

/**
 * True when two list items are the same entry by key (list-maps: equal scalar key values, defaults
 * applied; sets: equal scalars). False when unsure (object-valued keys): the caller then matches
 * items by their computed elements.
 */
export function sameListItem(l: ListAtom, x: unknown, y: unknown): boolean {
  if (l.type === 'set') return x === y && (typeof x !== 'object' || x === null) && x !== null;
  if (l.type !== 'map' || !isMap(x) || !isMap(y)) return false;
  for (const k of l.keys) {
    let a = Object.hasOwn(x, k) ? x[k] : undefined;
    let b = Object.hasOwn(y, k) ? y[k] : undefined;
    if (a === undefined || b === undefined) {
      const def = l.elem().map?.field(k)?.default;
      a ??= def;
      b ??= def;
    }
    if (a === undefined || a !== b || (typeof a === 'object' && a !== null)) return false;
  }
  return true;
}
