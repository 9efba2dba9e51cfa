import type { FieldSet } from '../fieldpath/field-set.js';
import { ElementKind, type PathElement } from '../fieldpath/path-element.js';
import { type Atom, deducedAtom, mapField } from './atom.js';

/**
 * Adapts a manager's field set to the current schema (upstream `ReconcileFieldSetWithSchema`),
 * the topology-change rule of spec doc 1 §2.7: where the schema now says a list, map or struct is
 * atomic but the set holds paths inside it, those paths collapse into the atomic value itself, so
 * every manager that owned an element co-owns the whole value. Going the other way (atomic to
 * granular) infers no new owners: the set is left as is. Returns the same set when nothing changes.
 */
export function reconcileFieldSet(set: FieldSet, atom: Atom): FieldSet {
  return walk(set, atom) ?? set;
}

/** Returns a replacement for `set`, or undefined when unchanged. */
function walk(set: FieldSet, a: Atom): FieldSet | undefined {
  let out: FieldSet | undefined;
  for (const n of set.unsortedNodes()) {
    if (n.child === undefined) continue;
    const ca = childAtom(a, n.pe);
    if (ca === undefined) continue;
    let replacement: FieldSet | undefined;
    let collapse = false;
    if (ca.map !== undefined) {
      if (ca.map.atomic) collapse = true;
      else if (!(ca.map.elem === deducedAtom && !ca.map.hasFields)) replacement = walk(n.child, ca);
    } else if (ca.list !== undefined) {
      if (ca.list.type === 'atomic') collapse = true;
      else replacement = walk(n.child, ca);
    }
    if (!collapse && replacement === undefined) continue;
    out ??= set.clone();
    if (collapse) out.replaceNode(n.pe, true, undefined);
    else out.replaceNode(n.pe, n.member, replacement as FieldSet);
  }
  return out;
}

function childAtom(a: Atom, pe: PathElement): Atom | undefined {
  if (pe.kind === ElementKind.Field) return a.map ? mapField(a.map, pe.name) : undefined;
  if (pe.kind === ElementKind.Key || pe.kind === ElementKind.Value) return a.list?.elem();
  return undefined;
}

/**
 * The set with every declared struct field that has children also made a member (upstream
 * `EnsureNamedFieldsAreMembers`), so that removing the set removes those fields whole.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, atom: Atom | undefined): FieldSet {
  let out: FieldSet | undefined;
  for (const n of set.unsortedNodes()) {
    if (n.child === undefined) continue;
    let ca: Atom | undefined;
    let named = false;
    if (atom !== undefined) {
      if (n.pe.kind === ElementKind.Field && atom.map !== undefined) {
        ca = mapField(atom.map, n.pe.name);
        named = atom.map.isField(n.pe.name);
      } else if (n.pe.kind === ElementKind.Key && atom.list !== undefined) ca = atom.list.elem();
    }
    const child = ensureNamedFieldsAreMembers(n.child, ca);
    const member = n.member || named;
    if (member === n.member && child === n.child) continue;
    out ??= set.clone();
    out.replaceNode(n.pe, member, child);
  }
  return out ?? set;
}
