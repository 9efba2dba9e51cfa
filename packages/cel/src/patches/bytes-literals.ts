/**
 * Patch `bytes-literals`: the engine stores a non-ASCII character of a bytes literal as one byte
 * (its UTF-16 code unit & 0xff), so `b'ÿ'` is `[0xff]`; CEL (and cel-go) encode it as UTF-8
 * (`[0xc3, 0xbf]`). `source-rewrite.ts` decodes every bytes literal here and puts the value into
 * the literal's AST node. Relies on: a bytes literal parses to a `value` node whose `args` is a
 * `Uint8Array` and whose `end` is the literal's end offset.
 */

const simpleEscapes: Record<string, number> = {
  '\\': 0x5c,
  '?': 0x3f,
  '"': 0x22,
  "'": 0x27,
  '`': 0x60,
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
};
const utf8 = new TextEncoder();

/**
 * Decodes the content of a (non-raw) CEL bytes literal: characters as UTF-8, `\xHH` and `\ooo` as
 * one byte, the simple escapes; `undefined` when an escape is invalid (the engine reports it).
 */
export function decodeBytesLiteral(content: string): Uint8Array | undefined {
  const out: number[] = [];
  let i = 0;
  while (i < content.length) {
    const ch = content[i] as string;
    if (ch !== '\\') {
      const cp = content.codePointAt(i) as number;
      for (const b of utf8.encode(String.fromCodePoint(cp))) out.push(b);
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const next = content[i + 1];
    if (next === undefined) return undefined;
    if (next in simpleEscapes) {
      out.push(simpleEscapes[next] as number);
      i += 2;
    } else if (next === 'x' || next === 'X') {
      const h = content.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(h)) return undefined;
      out.push(Number.parseInt(h, 16));
      i += 4;
    } else if (next >= '0' && next <= '3') {
      const o = content.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(o)) return undefined;
      out.push(Number.parseInt(o, 8));
      i += 4;
    } else return undefined;
  }
  return Uint8Array.from(out);
}
