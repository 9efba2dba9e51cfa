/**
 * Own-property access for objects built from client data. A key such as `__proto__`,
 * `constructor` or `prototype` in a request body is an ordinary (unknown) field: reading it with
 * `o[k]` would reach `Object.prototype` and writing it would replace the object's prototype, so
 * every walker over client data reads and writes through these instead.
 */

/** `o[k]` if `k` is an own property of `o`, else undefined (never an inherited member). */
export function getOwn(o: object, k: string): unknown {
  return Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;
}

/** Sets `o[k] = v` as an own data property, also for `__proto__` (whose plain assignment swaps the prototype). */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}
