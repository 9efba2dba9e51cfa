/**
 * A string that identifies a JSON value up to object key order, so list operations can use
 * `Map`/`Set` lookups instead of pairwise `deepEqual` (which made merging two long lists quadratic).
 */
export function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return v === undefined ? 'u' : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
}
