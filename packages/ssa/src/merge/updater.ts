import { FieldSet } from '../fieldpath/field-set.js';
import { ElementKind, type PathElement } from '../fieldpath/path-element.js';
import { isMap, type JsonMap, setKey } from '../fieldpath/value.js';
import { type Atom, mapField } from '../typed/atom.js';
import { type Comparison, compare, isSame } from '../typed/compare.js';
import { merge } from '../typed/merge.js';
import { ensureNamedFieldsAreMembers, reconcileFieldSet } from '../typed/reconcile.js';
import { removeItems } from '../typed/remove.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { type Conflict, MergeConflicts } from './conflicts.js';

/** The fields one manager owns, at the API version it wrote them in. */
export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** True for an apply (operation `Apply`), false for an update. */
  readonly applied: boolean;
}

/** Manager key → owned fields (upstream `fieldpath.ManagedFields`). */
export type ManagedSets = Map<string, VersionedSet>;

/**
 * Converts an object to another API version of the same kind, for managers that wrote at another
 * version. Returns undefined when that version no longer exists (the manager is then dropped).
 */
export type VersionConverter = (object: unknown, apiVersion: string) => unknown | undefined;

export interface UpdaterOptions {
  /** Type of the objects (see `atomOf` / `resourceAtomOf`). */
  readonly atom: Atom;
  /** Default: every version has the same shape (no conversion). */
  readonly convert?: VersionConverter;
  /**
   * Fields this write neither owns nor conflicts on (upstream `IgnoredFields`, the strategy's
   * reset fields): `status` for the main resource, `spec` for the status sub-resource.
   */
  readonly ignored?: FieldSet;
}

export interface UpdaterResult {
  /** The new object; for `applyFields`, undefined when the apply changes nothing. */
  readonly object: unknown;
  readonly managers: ManagedSets;
  /** What changed between the live and the new object. */
  readonly comparison: Comparison;
}

const identity: VersionConverter = (o) => o;

/**
 * Applies `config` for `manager` (upstream `merge.Updater.Apply`): the intent is merged into the
 * live object, the manager's set becomes the intent's field set, fields the manager held at its
 * last apply and dropped now are removed when nobody else owns them (reset to their schema
 * default when there is one), and fields owned by others whose values change are conflicts
 * (thrown as `MergeConflicts`) unless `force`, which moves them to the applier. Does not mutate
 * its inputs.
 */
export function applyFields(
  live: unknown,
  config: unknown,
  version: string,
  managers: ManagedSets,
  manager: string,
  force: boolean,
  opts: UpdaterOptions,
): UpdaterResult {
  const atom = opts.atom;
  const convert = opts.convert ?? identity;
  const ms = reconcileManagers(managers, atom);
  let merged: unknown = merge(live, config, atom) ?? {};
  const lastSet = ms.get(manager);
  const ignored = opts.ignored;
  let set = toFieldSet(config, atom);
  if (ignored !== undefined) set = set.recursiveDifference(ignored);
  ms.set(manager, { set, apiVersion: version, applied: true });
  if (lastSet !== undefined && !lastSet.set.isEmpty() && !lastSet.set.isSubsetOf(set)) {
    merged = prune(merged, ms, manager, lastSet, atom, convert);
    merged = resetDefaults(merged, lastSet.set.difference(set), atom);
  }
  const { managers: out, comparison } = update(
    live,
    merged,
    version,
    ms,
    manager,
    force,
    atom,
    convert,
    ignored,
  );
  return { object: isSame(comparison) ? undefined : merged, managers: out, comparison };
}

/**
 * Records a non-apply write (upstream `merge.Updater.Update`): never conflicts; the fields that
 * changed move to `manager` (an `Update` entry) and leave every other manager; removed fields
 * leave everyone.
 */
export function updateFields(
  live: unknown,
  next: unknown,
  version: string,
  managers: ManagedSets,
  manager: string,
  opts: UpdaterOptions,
): UpdaterResult {
  const atom = opts.atom;
  const convert = opts.convert ?? identity;
  const ms = reconcileManagers(managers, atom);
  const { managers: out, comparison } = update(
    live,
    next,
    version,
    ms,
    manager,
    true,
    atom,
    convert,
    opts.ignored,
  );
  const prev = out.get(manager)?.set ?? FieldSet.EMPTY;
  let set = prev.union(comparison.modified).union(comparison.added).difference(comparison.removed);
  if (opts.ignored !== undefined) set = set.recursiveDifference(opts.ignored);
  if (set.isEmpty()) out.delete(manager);
  else out.set(manager, { set, apiVersion: version, applied: false });
  return { object: next, managers: out, comparison };
}

/** The comparison without the ignored fields (upstream `Comparison.ExcludeFields`). */
function exclude(c: Comparison, ignored: FieldSet | undefined): Comparison {
  if (ignored === undefined || ignored.isEmpty()) return c;
  return {
    modified: c.modified.recursiveDifference(ignored),
    added: c.added.recursiveDifference(ignored),
    removed: c.removed.recursiveDifference(ignored),
  };
}

function reconcileManagers(managers: ManagedSets, atom: Atom): ManagedSets {
  const out: ManagedSets = new Map();
  for (const [k, vs] of managers) {
    const r = reconcileFieldSet(vs.set, atom);
    out.set(k, r === vs.set ? vs : { set: r, apiVersion: vs.apiVersion, applied: vs.applied });
  }
  return out;
}

function update(
  oldObject: unknown,
  newObject: unknown,
  version: string,
  managers: ManagedSets,
  workflow: string,
  force: boolean,
  atom: Atom,
  convert: VersionConverter,
  ignored: FieldSet | undefined,
): { managers: ManagedSets; comparison: Comparison } {
  const comparison = exclude(compare(oldObject, newObject, atom), ignored);
  const byVersion = new Map<string, Comparison | undefined>([[version, comparison]]);
  const conflicts = new Map<string, FieldSet>();
  const removed = new Map<string, FieldSet>();
  for (const [m, vs] of managers) {
    if (m === workflow) continue;
    let c = byVersion.get(vs.apiVersion);
    if (c === undefined && !byVersion.has(vs.apiVersion)) {
      const o = convert(oldObject, vs.apiVersion);
      const n = convert(newObject, vs.apiVersion);
      c = o === undefined || n === undefined ? undefined : exclude(compare(o, n, atom), ignored);
      byVersion.set(vs.apiVersion, c);
    }
    if (c === undefined) {
      managers.delete(m);
      continue;
    }
    const changed = c.modified.isEmpty()
      ? c.added
      : c.added.isEmpty()
        ? c.modified
        : c.modified.union(c.added);
    const conflictSet = vs.set.intersection(changed);
    if (!conflictSet.isEmpty()) conflicts.set(m, conflictSet);
    if (!c.removed.isEmpty()) removed.set(m, c.removed);
  }
  if (!force && conflicts.size > 0) {
    const list: Conflict[] = [];
    for (const m of [...conflicts.keys()].sort())
      (conflicts.get(m) as FieldSet).iterate((path) => list.push({ manager: m, path }));
    throw new MergeConflicts(list);
  }
  for (const [m, cs] of conflicts) {
    const vs = managers.get(m) as VersionedSet;
    managers.set(m, { set: vs.set.difference(cs), apiVersion: vs.apiVersion, applied: vs.applied });
  }
  for (const [m, rs] of removed) {
    const vs = managers.get(m) as VersionedSet;
    managers.set(m, { set: vs.set.difference(rs), apiVersion: vs.apiVersion, applied: vs.applied });
  }
  for (const [m, vs] of managers) if (vs.set.isEmpty()) managers.delete(m);
  return { managers, comparison };
}

/**
 * Removes from the merged object what the applier owned at its last apply and no longer applies,
 * unless someone else still owns it (upstream `Updater.prune` with its add-back steps).
 */
function prune(
  merged: unknown,
  managers: ManagedSets,
  applier: string,
  lastSet: VersionedSet,
  atom: Atom,
  convert: VersionConverter,
): unknown {
  const m = convert(merged, lastSet.apiVersion);
  if (m === undefined) return merged;
  const last = ensureNamedFieldsAreMembers(lastSet.set, atom);
  const pruned1 = removeItems(m, last, atom) ?? {};
  // Add back what any manager owns (upstream addBackOwnedItems; one version here).
  let managed = FieldSet.EMPTY;
  for (const vs of managers.values()) managed = managed.union(vs.set);
  const mergedSet = ensureNamedFieldsAreMembers(toFieldSet(m, atom), atom);
  const pruned1Set = ensureNamedFieldsAreMembers(toFieldSet(pruned1, atom), atom);
  const pruned2 =
    removeItems(
      m,
      mergedSet.difference(pruned1Set.union(ensureNamedFieldsAreMembers(managed, atom))),
      atom,
    ) ?? {};
  // Only what the last apply held may go (upstream addBackDanglingItems).
  const pruned2Set = ensureNamedFieldsAreMembers(toFieldSet(pruned2, atom), atom);
  const out = removeItems(m, mergedSet.difference(pruned2Set).intersection(last), atom) ?? {};
  return managers.get(applier)?.apiVersion === lastSet.apiVersion
    ? out
    : (convert(out, managers.get(applier)?.apiVersion ?? '') ?? out);
}

/**
 * Spec doc 1 §4.9 item 8: a field the applier dropped and nobody owns is reset to its schema
 * default when it has one. Only struct fields whose parent object is still present are reset.
 */
function resetDefaults(obj: unknown, dropped: FieldSet, atom: Atom): unknown {
  let changed = false;
  const visit = (o: unknown, set: FieldSet, a: Atom): unknown => {
    if (!isMap(o) || a.map === undefined || a.map.atomic) return o;
    let out: JsonMap | undefined;
    for (const n of set.sortedNodes()) {
      const pe: PathElement = n.pe;
      if (pe.kind !== ElementKind.Field) continue;
      const fa = mapField(a.map, pe.name);
      const cur = Object.hasOwn(o, pe.name) ? o[pe.name] : undefined;
      if (n.member && cur === undefined && fa.default !== undefined) {
        out ??= { ...o };
        setKey(out, pe.name, structuredClone(fa.default));
        changed = true;
      } else if (n.child !== undefined && cur !== undefined) {
        const r = visit(cur, n.child, fa);
        if (r !== cur) {
          out ??= { ...o };
          setKey(out, pe.name, r);
        }
      }
    }
    return out ?? o;
  };
  const r = visit(obj, dropped, atom);
  return changed ? r : obj;
}
