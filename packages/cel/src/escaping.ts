/**
 * Property-name escaping (doc 2 §2.10 item 5): only names matching
 * `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*` are reachable from an expression; `__` → `__underscores__`,
 * `.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`, and a reserved CEL keyword `kw` →
 * `__kw__`.
 */

/** The reserved words of CEL (language keywords and the words reserved for future use). */
export const celReservedSymbols: ReadonlySet<string> = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const accessible = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** The CEL identifier for property `name`, or `undefined` when the name is not accessible. */
export function escapePropertyName(name: string): string | undefined {
  if (!accessible.test(name)) return undefined;
  if (celReservedSymbols.has(name)) return `__${name}__`;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '_' && name[i + 1] === '_') {
      out += '__underscores__';
      i++;
    } else if (c === '.') out += '__dot__';
    else if (c === '-') out += '__dash__';
    else if (c === '/') out += '__slash__';
    else out += c;
  }
  return out;
}

const tokens: [string, string][] = [
  ['__underscores__', '__'],
  ['__dot__', '.'],
  ['__dash__', '-'],
  ['__slash__', '/'],
];

/** Inverse of `escapePropertyName`; `undefined` for an identifier no property escapes to. */
export function unescapePropertyName(ident: string): string | undefined {
  if (ident.length > 4 && ident.startsWith('__') && ident.endsWith('__')) {
    const kw = ident.slice(2, -2);
    if (celReservedSymbols.has(kw)) return kw;
  }
  let out = '';
  let i = 0;
  outer: while (i < ident.length) {
    if (ident.startsWith('__', i)) {
      for (const [tok, rep] of tokens) {
        if (ident.startsWith(tok, i)) {
          out += rep;
          i += tok.length;
          continue outer;
        }
      }
      return undefined;
    }
    out += ident[i++];
  }
  return escapePropertyName(out) === ident ? out : undefined;
}
