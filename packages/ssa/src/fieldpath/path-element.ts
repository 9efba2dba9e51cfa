import { canonicalJson, compareValues, formatValue, isMap } from './value.js';

/** Kind of a path element, in upstream's sort order: fields < keys < values < indexes. */
export const ElementKind = { Field: 0, Key: 1, Value: 2, Index: 3 } as const;
export type ElementKind = (typeof ElementKind)[keyof typeof ElementKind];

/** One field of a list-map key, e.g. `name="app"`. Key fields are kept sorted by name. */
export interface KeyField {
  readonly name: string;
  readonly value: unknown;
}

/**
 * One step of a field path: a struct field or map key (`f:name`), a list-map entry identified by
 * its key fields (`k:{"name":"a"}`), a set element (`v:"x"`) or an index inside an atomic list
 * (`i:0`). `id` is the canonical FieldsV1 spelling, so two elements are equal iff their ids are.
 */
export class PathElement {
  private quotedCache: string | undefined;

  private constructor(
    readonly kind: ElementKind,
    readonly id: string,
    readonly name: string,
    readonly key: readonly KeyField[] | undefined,
    readonly value: unknown,
    readonly index: number,
  ) {
    this.quotedCache = undefined;
  }

  /** `id` as a JSON string (how FieldsV1 text writes it). */
  get quoted(): string {
    this.quotedCache ??= JSON.stringify(this.id);
    return this.quotedCache;
  }

  static field(name: string): PathElement {
    let pe = fieldCache.get(name);
    if (pe === undefined) {
      pe = new PathElement(ElementKind.Field, `f:${name}`, name, undefined, undefined, -1);
      if (fieldCache.size > 50_000) fieldCache.clear();
      fieldCache.set(name, pe);
    }
    return pe;
  }

  /** A list-map key; `fields` need not be sorted. */
  static key(fields: readonly KeyField[]): PathElement {
    let sorted = fields;
    for (let i = 1; i < fields.length; i++) {
      if ((fields[i - 1] as KeyField).name > (fields[i] as KeyField).name) {
        sorted = [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        break;
      }
    }
    let id = 'k:{';
    for (let i = 0; i < sorted.length; i++) {
      const f = sorted[i] as KeyField;
      if (i > 0) id += ',';
      id += `${JSON.stringify(f.name)}:${canonicalJson(f.value)}`;
    }
    id += '}';
    return PathElement.keyWithId(id, sorted);
  }

  /** @internal A key element whose canonical `id` the caller built from `sorted` fields. */
  static keyWithId(id: string, sorted: readonly KeyField[]): PathElement {
    let pe = parsedCache.get(id);
    if (pe === undefined) {
      pe = new PathElement(ElementKind.Key, id, '', sorted, undefined, -1);
      if (parsedCache.size > 50_000) parsedCache.clear();
      parsedCache.set(id, pe);
    }
    return pe;
  }

  static value(v: unknown): PathElement {
    return new PathElement(ElementKind.Value, `v:${canonicalJson(v)}`, '', undefined, v, -1);
  }

  static index(i: number): PathElement {
    let pe = indexCache[i];
    if (pe === undefined) {
      pe = new PathElement(ElementKind.Index, `i:${i}`, '', undefined, undefined, i);
      if (i < 256) indexCache[i] = pe;
    }
    return pe;
  }

  /** Parses a FieldsV1 key (`f:…`, `k:…`, `v:…`, `i:…`); undefined for an unknown prefix, as upstream skips those. */
  static parse(s: string): PathElement | undefined {
    const c = s.charCodeAt(0);
    if (c === 102 /* f */ && s.charCodeAt(1) === 58) return PathElement.field(s.slice(2));
    if (c === 107 /* k */ || c === 118 /* v */) {
      const hit = parsedCache.get(s);
      if (hit !== undefined) return hit;
      const pe = PathElement.parseUncached(s);
      if (pe !== undefined && pe.id === s) {
        if (parsedCache.size > 50_000) parsedCache.clear();
        parsedCache.set(s, pe);
      }
      return pe;
    }
    return PathElement.parseUncached(s);
  }

  private static parseUncached(s: string): PathElement | undefined {
    if (s.length < 2 || s.charCodeAt(1) !== 58 /* : */)
      throw new SyntaxError(`invalid path element ${JSON.stringify(s)}`);
    const rest = s.slice(2);
    switch (s.charCodeAt(0)) {
      case 102 /* f */:
        return PathElement.field(rest);
      case 107 /* k */:
        {
          const obj = JSON.parse(rest) as unknown;
          if (!isMap(obj)) throw new SyntaxError(`invalid key path element ${JSON.stringify(s)}`);
          return PathElement.key(Object.keys(obj).map((name) => ({ name, value: obj[name] })));
        }
      case 118 /* v */:
        return PathElement.value(JSON.parse(rest));
      case 105 /* i */:
        {
          if (!/^-?\d+$/.test(rest)) throw new SyntaxError(`invalid index path element ${JSON.stringify(s)}`);
          return PathElement.index(Number(rest));
        }
      default:
        return undefined;
    }
  }

  /** Upstream's human form, used in conflict messages: `.name`, `[name="a"]`, `[="x"]`, `[0]`. */
  toString(): string {
    switch (this.kind) {
      case ElementKind.Field:
        return `.${this.name}`;
      case ElementKind.Key:
        return `[${(this.key as readonly KeyField[]).map((f) => `${f.name}=${formatValue(f.value)}`).join(',')}]`;
      case ElementKind.Value:
        return `[=${formatValue(this.value)}]`;
      default:
        return `[${this.index}]`;
    }
  }
}

const fieldCache = new Map<string, PathElement>();
const parsedCache = new Map<string, PathElement>();
const indexCache: PathElement[] = [];

/** Upstream's total order of path elements (the order FieldsV1 is serialized in). */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a === b) return 0;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  switch (a.kind) {
    case ElementKind.Field:
      return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    case ElementKind.Key: {
      const ka = a.key as readonly KeyField[];
      const kb = b.key as readonly KeyField[];
      if (ka.length !== kb.length) return ka.length < kb.length ? -1 : 1;
      for (let i = 0; i < ka.length; i++) {
        const x = ka[i] as KeyField;
        const y = kb[i] as KeyField;
        if (x.name !== y.name) return x.name < y.name ? -1 : 1;
        const c = compareValues(x.value, y.value);
        if (c !== 0) return c;
      }
      return 0;
    }
    case ElementKind.Value:
      return compareValues(a.value, b.value);
    default:
      return a.index < b.index ? -1 : a.index > b.index ? 1 : 0;
  }
}

/** A path from the root of an object. */
export type Path = readonly PathElement[];

/** `.spec.containers[name="app"].image` */
export function formatPath(p: Path): string {
  let s = '';
  for (const pe of p) s += pe.toString();
  return s;
}

/** Builds a path from names (strings), indexes (numbers) and key objects (`{name: 'a'}`). */
export function makePath(
  ...parts: (string | number | Record<string, unknown> | PathElement)[]
): PathElement[] {
  return parts.map((p) =>
    p instanceof PathElement
      ? p
      : typeof p === 'string'
        ? PathElement.field(p)
        : typeof p === 'number'
          ? PathElement.index(p)
          : PathElement.key(Object.keys(p).map((name) => ({ name, value: p[name] }))),
  );
}
