/**
 * Client-side apply migration (spec doc 1 §4.9 item 11): the last-applied annotation that `kubectl`
 * applies keep up to date, and the conflicts it lets them take over.
 */
import type { ApiObject } from '@orchard/meta';
import type { FieldSet } from '../fieldpath/field-set.js';
import { isMap, type JsonMap } from '../fieldpath/value.js';
import type { Atom } from '../typed/atom.js';
import { compare } from '../typed/compare.js';
import { toFieldSet } from '../typed/to-field-set.js';

/** The annotation client-side apply keeps (spec doc 1 §4.9 item 11), kubernetes flavor spelling. */
export const lastAppliedAnnotationKey = 'kubectl.kubernetes.io/last-applied-configuration';
/** The manager name whose applies migrate from, and keep up to date, the last-applied annotation. */
export const lastAppliedManager = 'kubectl';

/**
 * Upstream lastAppliedManager: for `kubectl` applies over objects written by client-side apply,
 * conflicts on fields the last-applied annotation holds with the live value are allowed.
 */
export function allowedConflictsFromLastApplied(
  live: ApiObject,
  liveBody: unknown,
  apiVersion: string,
  annotation: string,
  atom: Atom,
): FieldSet | undefined {
  const ann = (live.metadata?.annotations as Record<string, string> | undefined)?.[annotation];
  if (!ann) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(ann);
  } catch {
    return undefined;
  }
  if (!isMap(last) || last.apiVersion !== apiVersion) return undefined;
  try {
    const set = toFieldSet(last, atom);
    const c = compare(last, liveBody, atom);
    return set.difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    return undefined;
  }
}

export function buildLastApplied(intent: ApiObject, annotation: string): string {
  const copy = structuredClone(intent) as JsonMap;
  const meta = copy.metadata as JsonMap | undefined;
  const anns = meta?.annotations as Record<string, unknown> | undefined;
  if (anns && Object.hasOwn(anns, annotation)) delete anns[annotation];
  return `${sortedJson(copy)}\n`;
}

/** JSON with map keys sorted, as Go encodes unstructured objects. */
function sortedJson(v: unknown): string {
  if (isMap(v)) {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${sortedJson(v[k])}`)
      .join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  return JSON.stringify(v) ?? 'null';
}

export function hasAnnotation(o: ApiObject, key: string): boolean {
  const a = o.metadata?.annotations as Record<string, string> | undefined;
  return typeof a?.[key] === 'string' && a[key] !== '';
}

export function setAnnotation(o: ApiObject, key: string, value: string): ApiObject {
  const meta = { ...(o.metadata ?? {}) } as JsonMap;
  meta.annotations = { ...((meta.annotations as Record<string, string>) ?? {}), [key]: value };
  return { ...o, metadata: meta } as ApiObject;
}
