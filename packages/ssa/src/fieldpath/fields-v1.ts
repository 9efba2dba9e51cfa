import { FieldSet } from './field-set.js';
import { PathElement } from './path-element.js';

/** The `fieldsV1` object of a managedFields entry: `f:`/`k:`/`v:`/`i:` keys, `{}` leaves, `"."` for the element itself. */
export type FieldsV1 = { [key: string]: FieldsV1 };

/** Error for a `fieldsV1` value that is not a valid field set. */
export class FieldsV1Error extends Error {
  readonly orchardSsaFieldsV1Error = true as const;
  constructor(message: string) {
    super(message);
    this.name = 'FieldsV1Error';
  }
}

/** The set as a `fieldsV1` object, keys in upstream's serialization order. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const nodes = set.sortedNodes();
  if (includeSelf && nodes.length > 0) out['.'] = {};
  for (const n of nodes) out[n.pe.id] = n.child === undefined ? {} : emit(n.child, n.member);
  return out;
}

/** The set as `fieldsV1` JSON text, byte-identical to upstream's `Set.ToJSON`. */
export function encodeFieldsV1(set: FieldSet): string {
  return `{${emitText(set, false)}}`;
}

function emitText(set: FieldSet, includeSelf: boolean): string {
  const nodes = set.sortedNodes();
  let s = includeSelf && nodes.length > 0 ? '".":{}' : '';
  for (const n of nodes) {
    if (s.length > 0) s += ',';
    s += n.pe.quoted;
    s += n.child === undefined ? ':{}' : `:{${emitText(n.child, n.member)}}`;
  }
  return s;
}

/** Parses a `fieldsV1` object (unknown key prefixes are skipped, as upstream). */
export function fromFieldsV1(v: unknown): FieldSet {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new FieldsV1Error('fieldsV1 must be an object');
  const set = FieldSet.builder();
  read(v as Record<string, unknown>, set);
  return set;
}

/** Parses `fieldsV1` JSON text. */
export function decodeFieldsV1(text: string): FieldSet {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new FieldsV1Error(`invalid fieldsV1 JSON: ${(e as Error).message}`);
  }
  return fromFieldsV1(v);
}

/** Fills `into` with the entries of `obj`; returns whether `obj` marks its own element a member. */
function read(obj: Record<string, unknown>, into: FieldSet): boolean {
  let self = false;
  let any = false;
  for (const key in obj) {
    if (key === '.') {
      self = true;
      continue;
    }
    let pe: PathElement | undefined;
    try {
      pe = PathElement.parse(key);
    } catch (e) {
      throw new FieldsV1Error(`parsing key as path element: ${(e as Error).message}`);
    }
    if (pe === undefined) continue;
    const sub = obj[key];
    if (typeof sub !== 'object' || sub === null || Array.isArray(sub))
      throw new FieldsV1Error(`value of ${key} must be an object`);
    any = true;
    let empty = true;
    for (const _ in sub as Record<string, unknown>) {
      empty = false;
      break;
    }
    if (empty) {
      into.insertMember(pe);
      continue;
    }
    const child = FieldSet.builder();
    const childIsMember = read(sub as Record<string, unknown>, child);
    into.replaceNode(pe, childIsMember, child);
  }
  return self || !any;
}
