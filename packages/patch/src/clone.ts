/**
 * Deep copy of a JSON value. A JSON round trip is what fast-json-patch uses too and, for plain
 * JSON data, beats `structuredClone` severalfold in V8.
 */
export function cloneJson<T>(v: T): T {
  return v === null || typeof v !== 'object' ? v : (JSON.parse(JSON.stringify(v)) as T);
}
