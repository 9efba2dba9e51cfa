/**
 * The stored JSON of an object with its `metadata.resourceVersion` written into the text before it
 * is parsed (issue 18's memory target): a property added to a parsed object after `JSON.parse` goes
 * to a separate property array (~32 B per long-lived decoded object), one parsed with the object is
 * held in it. The key goes last in `metadata`, where the assignment after parsing puts it, so the
 * object serializes to the same bytes; a `resourceVersion` already there keeps its place and takes
 * the new value (as JSON.parse does with a repeated key, and as the assignment did).
 */
export function withResourceVersion(text: string, resourceVersion: string): string | undefined {
  const end = metadataEnd(text);
  if (end < 0) return undefined;
  let k = end - 1;
  while (k > 0 && isSpace(text.charCodeAt(k))) k--;
  const sep = text.charCodeAt(k) === openBrace ? '' : ',';
  return `${text.slice(0, end)}${sep}"resourceVersion":${JSON.stringify(resourceVersion)}${text.slice(end)}`;
}

const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The index after the string starting at `i` (a `"`), or -1 when it does not end. */
function stringEnd(text: string, i: number): number {
  let j = text.indexOf('"', i + 1);
  while (j > 0) {
    let slashes = 0;
    while (text.charCodeAt(j - 1 - slashes) === backslash) slashes++;
    if (slashes % 2 === 0) return j + 1;
    j = text.indexOf('"', j + 1);
  }
  return -1;
}

/**
 * The index of the `}` that closes the first top-level `"metadata"` member of the JSON object
 * `text` when that member is an object; -1 otherwise (not an object, no such member, malformed).
 * A key spelled with escapes is not recognized (the caller then sets the version after parsing).
 */
export function metadataEnd(text: string): number {
  let depth = 0;
  let metaDepth = -1;
  let i = 0;
  const n = text.length;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== openBrace) return -1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      const after = stringEnd(text, i);
      if (after < 0) return -1;
      if (depth === 1 && metaDepth < 0 && after - i === 10 && text.startsWith('"metadata"', i)) {
        let j = after;
        while (j < n && isSpace(text.charCodeAt(j))) j++;
        if (text.charCodeAt(j) === colon) {
          j++;
          while (j < n && isSpace(text.charCodeAt(j))) j++;
          if (text.charCodeAt(j) !== openBrace) return -1;
          metaDepth = 2;
          depth = 2;
          i = j + 1;
          continue;
        }
      }
      i = after;
      continue;
    }
    if (c === openBrace || c === openBracket) depth++;
    else if (c === closeBrace || c === closeBracket) {
      if (depth === metaDepth && c === closeBrace) return i;
      depth--;
      if (depth <= 0) return -1;
    }
    i++;
  }
  return -1;
}
