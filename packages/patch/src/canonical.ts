/**
 * A string that identifies a JSON value up to object key order, so list operations can use
 * `Map`/`Set` lookups instead of pairwise `deepEqual` (which made merging two long lists quadratic).
 * Scalars (the usual merge keys) take a fast path.
 */
export function canonical(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `s${v}`;
    case 'number':
      return `n${v}`;
    case 'boolean':
      return v ? 't' : 'f';
    case 'undefined':
      return 'u';
  }
  if (v === null) return 'z';
  return compound(v);
}

/** Arrays and objects: every string quoted, so no element boundary can be forged. */
function compound(v: unknown): string {
  if (v === null || typeof v !== 'object') return v === undefined ? 'u' : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(compound).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${compound((v as Record<string, unknown>)[k])}`).join(',')}}`;
}
