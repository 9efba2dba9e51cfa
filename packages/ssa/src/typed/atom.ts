import type { StructuralSchema } from '@orchard/schema';

/**
 * The merge-relevant shape of a schema node (upstream's `schema.Atom`): what a value at this
 * node may be and how it merges. A node may allow several shapes (untyped and deduced nodes); the
 * walkers pick the one matching the value, as upstream's `deduceAtom` does.
 */
export interface Atom {
  readonly scalar: boolean;
  readonly list: ListAtom | undefined;
  readonly map: MapAtom | undefined;
  /** The schema default, used when an applier drops a field it alone owned. */
  readonly default: unknown;
  /** `nullable: true`: an explicit null is a value to keep. */
  readonly nullable?: boolean;
}

export interface ListAtom {
  /** `atomic`: replaced whole; `set`: scalar elements (`v:`); `map`: entries keyed by `keys` (`k:`). */
  readonly type: 'atomic' | 'set' | 'map';
  readonly keys: readonly string[];
  /** `keys` sorted by name, with their JSON-quoted names (to build `k:` ids). */
  readonly sortedKeys: readonly string[];
  readonly quotedKeys: readonly string[];
  elem(): Atom;
}

export interface MapAtom {
  readonly atomic: boolean;
  /** True when the map declares struct fields. */
  readonly hasFields: boolean;
  /** Declared struct fields; a key not declared uses `elem`. */
  field(name: string): Atom | undefined;
  /** True when `name` is a declared struct field (map keys that are not become members of field sets). */
  isField(name: string): boolean;
  /** Type of undeclared keys; undefined for a closed struct (then treated as deduced). */
  readonly elem: Atom | undefined;
}

function mkMap(
  fields: Map<string, () => Atom> | undefined,
  elem: Atom | undefined,
  atomic: boolean,
): MapAtom {
  const cache = new Map<string, Atom>();
  return {
    atomic,
    hasFields: fields !== undefined && fields.size > 0,
    elem,
    isField: (name) => fields?.has(name) === true,
    field(name) {
      const hit = cache.get(name);
      if (hit !== undefined) return hit;
      const f = fields?.get(name);
      if (f === undefined) return undefined;
      const a = f();
      cache.set(name, a);
      return a;
    },
  };
}

function mkList(type: ListAtom['type'], keys: readonly string[], elem: () => Atom): ListAtom {
  let cached: Atom | undefined;
  const sortedKeys = [...keys].sort();
  return {
    type,
    keys,
    sortedKeys,
    quotedKeys: sortedKeys.map((k) => JSON.stringify(k)),
    elem: () => {
      cached ??= elem();
      return cached;
    },
  };
}

/** Upstream's `__untyped_atomic_`: any value, replaced as a whole. */
export const untypedAtomic: Atom = (() => {
  const a: { scalar: boolean; list: ListAtom | undefined; map: MapAtom | undefined; default: unknown } = {
    scalar: true,
    list: undefined,
    map: undefined,
    default: undefined,
  };
  a.list = mkList('atomic', [], () => a);
  a.map = mkMap(undefined, a, true);
  return a;
})();

/** Upstream's `__untyped_deduced_`: maps are granular (recursively deduced), lists atomic, scalars leaves. */
export const deducedAtom: Atom = (() => {
  const a: { scalar: boolean; list: ListAtom | undefined; map: MapAtom | undefined; default: unknown } = {
    scalar: true,
    list: mkList('atomic', [], () => untypedAtomic),
    map: undefined,
    default: undefined,
  };
  a.map = mkMap(undefined, a, false);
  return a;
})();

const cache = new WeakMap<StructuralSchema, Atom>();

/**
 * The atom of a structural schema. Markers as spec doc 1 §2.7: a list without `listType` is
 * atomic (custom resources without markers: struct fields + atomic lists), `mapType` applies to
 * maps and structs, `preserveUnknownFields` and schema-less values are deduced.
 */
export function atomOf(s: StructuralSchema | undefined): Atom {
  if (s === undefined) return deducedAtom;
  let a = cache.get(s);
  if (a === undefined) {
    a = build(s, false);
    cache.set(s, a);
  }
  return a;
}

/**
 * The atom of a top-level resource schema: like `atomOf`, but `metadata` always has ObjectMeta's
 * merge shape (labels/annotations granular maps, finalizers a set, ownerReferences keyed by uid),
 * as upstream's type converter does whatever the published schema says about metadata.
 */
export function resourceAtomOf(s: StructuralSchema | undefined): Atom {
  if (s === undefined) return resourceDeducedAtom;
  let a = rootCache.get(s);
  if (a === undefined) {
    a = build(s, true);
    rootCache.set(s, a);
  }
  return a;
}
const rootCache = new WeakMap<StructuralSchema, Atom>();

function build(s: StructuralSchema, root: boolean): Atom {
  const a = buildShape(s, root);
  return s.nullable ? { ...a, nullable: true } : a;
}

function buildShape(s: StructuralSchema, root: boolean): Atom {
  const def = s.default;
  if (s.intOrString) return withDefault(untypedAtomic, def);
  const type = s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  if (type === 'array') {
    const items = s.items;
    const lt = s.listType === 'map' ? 'map' : s.listType === 'set' ? 'set' : 'atomic';
    const keys = lt === 'map' ? (s.listMapKeys ?? []) : [];
    return {
      scalar: false,
      list: mkList(lt === 'map' && keys.length === 0 ? 'atomic' : lt, keys, () =>
        items ? atomOf(items) : deducedAtom,
      ),
      map: undefined,
      default: def,
    };
  }
  if (type === 'object') {
    const props = s.properties;
    const ap = s.additionalProperties;
    const elem =
      typeof ap === 'object'
        ? atomOf(ap)
        : ap === true || s.preserveUnknownFields || s.embeddedResource
          ? deducedAtom
          : props === undefined
            ? deducedAtom
            : undefined;
    let fields: Map<string, () => Atom> | undefined;
    if (props !== undefined || root) {
      fields = new Map();
      for (const name of Object.keys(props ?? {})) {
        const p = (props as Record<string, StructuralSchema>)[name] as StructuralSchema;
        fields.set(name, () => atomOf(p));
      }
      if (root || s.embeddedResource) {
        fields.set('apiVersion', () => stringAtom);
        fields.set('kind', () => stringAtom);
        fields.set('metadata', () => objectMetaAtom);
      }
    }
    return { scalar: false, list: undefined, map: mkMap(fields, elem, s.mapType === 'atomic'), default: def };
  }
  if (type === undefined) {
    // No type: x-preserve-unknown-fields / embedded / untyped: deduce from the value.
    return withDefault(deducedAtom, def);
  }
  return def === undefined ? stringAtom : { scalar: true, list: undefined, map: undefined, default: def };
}

function withDefault(a: Atom, def: unknown): Atom {
  return def === undefined ? a : { ...a, default: def };
}

const stringAtom: Atom = { scalar: true, list: undefined, map: undefined, default: undefined };
const stringMapAtom: Atom = {
  scalar: false,
  list: undefined,
  map: mkMap(undefined, stringAtom, false),
  default: undefined,
};

function struct(fields: Record<string, Atom>, elem?: Atom): Atom {
  const m = new Map<string, () => Atom>();
  for (const k of Object.keys(fields)) m.set(k, () => fields[k] as Atom);
  return { scalar: false, list: undefined, map: mkMap(m, elem, false), default: undefined };
}

/** ObjectMeta's merge shape (upstream io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta). */
export const objectMetaAtom: Atom = struct({
  name: stringAtom,
  generateName: stringAtom,
  namespace: stringAtom,
  selfLink: stringAtom,
  uid: stringAtom,
  resourceVersion: stringAtom,
  generation: stringAtom,
  creationTimestamp: stringAtom,
  deletionTimestamp: stringAtom,
  deletionGracePeriodSeconds: stringAtom,
  labels: stringMapAtom,
  annotations: stringMapAtom,
  ownerReferences: {
    scalar: false,
    list: mkList('map', ['uid'], () =>
      struct({
        apiVersion: stringAtom,
        kind: stringAtom,
        name: stringAtom,
        uid: stringAtom,
        controller: stringAtom,
        blockOwnerDeletion: stringAtom,
      }),
    ),
    map: undefined,
    default: undefined,
  },
  finalizers: {
    scalar: false,
    list: mkList('set', [], () => stringAtom),
    map: undefined,
    default: undefined,
  },
  managedFields: {
    scalar: false,
    list: mkList('atomic', [], () => untypedAtomic),
    map: undefined,
    default: undefined,
  },
});

const resourceDeducedAtom: Atom = struct(
  { apiVersion: stringAtom, kind: stringAtom, metadata: objectMetaAtom },
  deducedAtom,
);

/** Picks the shape matching the value (upstream `deduceAtom`): 0 scalar, 1 list, 2 map. */
export function shapeFor(a: Atom, v: unknown): 0 | 1 | 2 {
  if (v !== null && v !== undefined) {
    if (Array.isArray(v)) {
      if (a.list) return 1;
    } else if (typeof v === 'object') {
      if (a.map) return 2;
    } else if (a.scalar) return 0;
  }
  return a.map ? 2 : a.list ? 1 : 0;
}

/**
 * The two sides of a list walk: each side as an array (undefined when it is not one), the list type,
 * and `whole`: the list is atomic or both sides are empty, so it is handled as one value.
 */
export function listSides(
  l: unknown,
  r: unknown,
  a: Atom,
): { la: unknown[] | undefined; ra: unknown[] | undefined; lt: NonNullable<Atom['list']>; whole: boolean } {
  const la = Array.isArray(l) ? l : undefined;
  const ra = Array.isArray(r) ? r : undefined;
  const lt = a.list as NonNullable<Atom['list']>;
  const whole =
    lt.type === 'atomic' || ((la === undefined || la.length === 0) && (ra === undefined || ra.length === 0));
  return { la, ra, lt, whole };
}

/** Type of a map key: the declared field, else the element type, else deduced. */
export function mapField(m: MapAtom, name: string): Atom {
  return m.field(name) ?? m.elem ?? deducedAtom;
}
