import { PagerError } from './errors.js';

/**
 * Resource versions are opaque strings on the wire (spec doc 1 §2.9); this server issues decimal store
 * revisions. Only the store and the pager parse them.
 */
export function parseResourceVersion(rv: string, field = 'resourceVersion'): number {
  if (!/^(0|[1-9][0-9]{0,15})$/.test(rv)) {
    throw new PagerError('InvalidResourceVersion', `invalid resource version: "${rv}"`, { field });
  }
  const n = Number(rv);
  if (!Number.isSafeInteger(n)) {
    throw new PagerError('InvalidResourceVersion', `invalid resource version: "${rv}"`, { field });
  }
  return n;
}

/** The opaque wire form of a store revision. */
export function formatResourceVersion(revision: number): string {
  return String(revision);
}
