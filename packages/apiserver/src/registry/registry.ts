import type { ResourceDefinition } from './resource.js';

/** A resource definition added to or removed from the registry (CRDs come and go at run time). */
export type RegistryChange = { type: 'added' | 'removed'; definition: ResourceDefinition };

/**
 * The resource types the server serves. Mutable at run time (CRDs add and remove types); discovery
 * and anything caching per-type state subscribe with `onChange`.
 */
export interface ResourceRegistry {
  /** Adds (or replaces, same group + resource) a type. */
  add(def: ResourceDefinition): void;
  remove(group: string, resource: string): boolean;
  /** The type served at `group/version/resource`, or undefined. */
  lookup(group: string, version: string, resource: string): ResourceDefinition | undefined;
  /** By group and resource regardless of version. */
  get(group: string, resource: string): ResourceDefinition | undefined;
  /** The type of a kind in a group. */
  byKind(group: string, kind: string): ResourceDefinition | undefined;
  /** All types, in insertion order. */
  all(): readonly ResourceDefinition[];
  /** Groups in insertion order, each with its versions (first = preferred). */
  groups(): { name: string; versions: string[] }[];
  /** Called after every add/remove; returns an unsubscribe function. */
  onChange(listener: (change: RegistryChange) => void): () => void;
}

/**
 * A registry of served resources, starting with `initial`; discovery and routing read it, CRDs change
 * it.
 */
export function createResourceRegistry(initial: readonly ResourceDefinition[] = []): ResourceRegistry {
  const defs = new Map<string, ResourceDefinition>();
  const listeners = new Set<(c: RegistryChange) => void>();
  const keyOf = (group: string, resource: string) => `${group}/${resource}`;
  const emit = (c: RegistryChange) => {
    for (const l of listeners) l(c);
  };
  const registry: ResourceRegistry = {
    add(def) {
      defs.set(keyOf(def.group, def.resource), def);
      emit({ type: 'added', definition: def });
    },
    remove(group, resource) {
      const def = defs.get(keyOf(group, resource));
      if (!def) return false;
      defs.delete(keyOf(group, resource));
      emit({ type: 'removed', definition: def });
      return true;
    },
    lookup(group, version, resource) {
      const def = defs.get(keyOf(group, resource));
      return def?.versions.includes(version) ? def : undefined;
    },
    get(group, resource) {
      return defs.get(keyOf(group, resource));
    },
    byKind(group, kind) {
      for (const d of defs.values()) if (d.group === group && d.kind === kind) return d;
      return undefined;
    },
    all() {
      return [...defs.values()];
    },
    groups() {
      const out = new Map<string, string[]>();
      for (const d of defs.values()) {
        const vs = out.get(d.group) ?? [];
        for (const v of d.versions) if (!vs.includes(v)) vs.push(v);
        out.set(d.group, vs);
      }
      return [...out].map(([name, versions]) => ({ name, versions }));
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  for (const d of initial) registry.add(d);
  return registry;
}
