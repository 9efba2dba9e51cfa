/**
 * A cheap test for duplicate keys in JSON text. `JSON.parse` keeps the last of duplicate keys
 * silently. Every object key in JSON text is a string immediately followed (after whitespace) by
 * `:`, and a `"` inside a string is always escaped, so a `"` followed by `:` inside a string can
 * only come from a `\"` escape. Hence `count(/"\s*:/)` ≥ keys in the text ≥ keys in the parsed
 * value, the parsed count being smaller exactly when keys were collapsed: equal counts prove there
 * is no duplicate, and only unequal ones need a full scan.
 */

/** Number of object keys in a parsed JSON value (iterative: safe at any depth). */
export function countJsonKeys(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    for (const k of Object.keys(v)) {
      n++;
      stack.push((v as Record<string, unknown>)[k]);
    }
  }
  return n;
}

const keyLike = /"\s*:/g;
const spacedKey = /"\s+:/;

/** `count(/"\s*:/)`; compact JSON (no whitespace before a colon) takes a native indexOf loop. */
function countKeyLike(text: string): number {
  let n = 0;
  if (!spacedKey.test(text)) {
    for (let i = text.indexOf('":'); i !== -1; i = text.indexOf('":', i + 2)) n++;
    return n;
  }
  keyLike.lastIndex = 0;
  while (keyLike.exec(text) !== null) n++;
  return n;
}

/** False when the JSON `text` (which parsed to `parsed`) certainly holds no duplicate key. */
export function mayHoldDuplicateKeys(text: string, parsed: unknown): boolean {
  return countKeyLike(text) !== countJsonKeys(parsed);
}
