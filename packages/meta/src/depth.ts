/**
 * Nesting depth of decoded request bodies. Native `JSON.stringify` and `structuredClone` overflow
 * the stack at a few thousand levels in Node 20 and the `yaml` package's composer at ~800, so a
 * server must refuse deeper bodies at decode time (upstream's Go decoder stops at 10 000 levels for
 * the same reason). One bound for every encoding (JSON, YAML, CBOR, Protobuf, apply), with room
 * below the smallest recursion limit for the server's own stack.
 */

/** Deepest nesting of arrays/objects a request body may have (default for `exceedsDepth`). */
export const maxNestingDepth = 500;

/**
 * Whether `value` nests arrays/objects more than `limit` levels deep. Iterative (an explicit
 * stack), so it is safe on any input `JSON.parse` accepted.
 */
export function exceedsDepth(value: unknown, limit: number = maxNestingDepth): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > limit) return true;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push([x, d + 1]);
    } else {
      for (const k in v as Record<string, unknown>) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object') stack.push([x, d + 1]);
      }
    }
  }
  return false;
}
