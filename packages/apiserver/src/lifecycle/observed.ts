import type { StoredObject } from '@orchard/meta';

/** One decoded store event as the lifecycle controllers see it (revision order). */
export interface ObservedObject {
  readonly type: 'put' | 'delete';
  readonly key: string;
  /** '' for the core group. */
  readonly group: string;
  readonly resource: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  /** The object after the event (for `delete`: its last state). */
  readonly object: StoredObject;
}

/**
 * Splits an object key of the object store (`/<group|core>/<resource>/[<namespace>/]<name>`).
 * Undefined for keys of another shape (a store shared with other data).
 */
export function parseObjectKey(
  key: string,
): { group: string; resource: string; namespace: string; name: string } | undefined {
  const parts = key.split('/');
  if (parts[0] !== '' || (parts.length !== 4 && parts.length !== 5)) return undefined;
  const group = parts[1] === 'core' ? '' : (parts[1] as string);
  const resource = parts[2] as string;
  if (parts.length === 4) return { group, resource, namespace: '', name: parts[3] as string };
  return { group, resource, namespace: parts[3] as string, name: parts[4] as string };
}
