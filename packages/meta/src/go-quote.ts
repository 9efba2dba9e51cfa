const lowerHex = '0123456789abcdef';
const utf8 = new TextEncoder();

/**
 * Go's `time` package quoting of a value in its error messages (`time.quote`): double quotes, `"` and
 * `\` escaped, control and non-ASCII characters as `\xNN` per UTF-8 byte.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c < 0x20 || c >= 0x80) {
      for (const b of utf8.encode(ch)) out += `\\x${lowerHex[b >> 4]}${lowerHex[b & 15]}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}
