/**
 * Patch `source-rewrite`: CEL syntax the engine's lexer/parser (`@marcbachmann/cel-js` 8.0.0)
 * does not accept or decodes wrongly, rewritten before it parses and restored in the parsed AST (each
 * item is a row of the README's patch table):
 *
 * - bytes literals: the engine stores a non-ASCII character as one byte (its code unit & 0xff)
 *   instead of its UTF-8 encoding; every bytes literal is decoded here and its AST value replaced;
 * - raw bytes literals (`br'…'`, `Rb"…"`, …) are not lexed: rewritten to a same-length plain
 *   bytes literal whose value is replaced by the raw content's UTF-8 bytes;
 * - backtick-quoted field names (`` a.`b-c` ``, `` a.?`b.c` ``) are not lexed: rewritten to a
 *   same-length generated identifier, and the field name restored in the selection node;
 * - a double literal without a leading digit (`.99`) is not lexed: a `0` is inserted (the only
 *   length-changing edit; positions are mapped back to the original source);
 * - optional entries in list and map literals (`[?x]`, `{?k: v}`) are not parsed: the `?` is
 *   blanked out and the entry marked; `applyParsed` gives those literals CEL's semantics (an
 *   entry is included only when its optional value is present).
 *
 * The scanner follows CEL's lexical grammar (strings with prefixes, triple quotes, comments), so
 * nothing inside a string literal or a comment is touched.
 */
import { decodeBytesLiteral } from './bytes-literals.js';
import { type EngineNode, walkAst } from './engine-ast.js';
import { optionalList, optionalMap } from './optional-entries.js';

export interface Preprocessed {
  /** What the engine parses. */
  source: string;
  /** True when `source` differs from the original. */
  changed: boolean;
  /** True when offsets differ between `source` and the original (see `toOriginal`). */
  shifted: boolean;
  /** Maps an offset in `source` to the offset in the original expression. */
  toOriginal(offset: number): number;
  /** Correctly decoded bytes literals by their end offset in `source`. */
  bytes: Map<number, Uint8Array>;
  /** Generated identifier → backtick-quoted field name. */
  quotedFields: Map<string, string>;
  /** Start offsets (in `source`) of optional list elements and optional map keys. */
  optionalEntries: Set<number>;
}

const identStart = /[A-Za-z_]/;
const identPart = /[A-Za-z0-9_]/;
const digit = /[0-9]/;
const quotedIdent = /^[A-Za-z0-9_.\-/ ]+$/;
const utf8 = new TextEncoder();

/** Nothing to rewrite without a backtick, `?`, bytes prefix or a `.` before a digit. */
const needsScan = /[`?]|[bB][rR]?['"]|[rR][bB]['"]|\.\d/;
const identity = (o: number): number => o;

/** Rewrites `original` for the engine (see the module comment). */
export function preprocess(original: string): Preprocessed {
  if (!needsScan.test(original))
    return {
      source: original,
      changed: false,
      shifted: false,
      toOriginal: identity,
      bytes: new Map(),
      quotedFields: new Map(),
      optionalEntries: new Set(),
    };
  const bytes = new Map<number, Uint8Array>();
  const quotedFields = new Map<string, string>();
  const optionalEntries = new Set<number>();
  /** Output offsets at which `delta` characters were inserted. */
  const inserts: { at: number; delta: number }[] = [];
  const brackets: string[] = [];
  let out = '';
  let changed = false;
  /** The last significant token: `ident`, `literal`, `close`, `open`, `comma`, `.`, `.?`, `op`. */
  let last = 'op';
  let pendingOptional = false;
  let generated = 0;
  const n = original.length;
  let i = 0;

  const startToken = (): void => {
    if (pendingOptional) {
      optionalEntries.add(out.length);
      pendingOptional = false;
    }
  };

  while (i < n) {
    const ch = original[i] as string;
    // whitespace and comments
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f') {
      out += ch;
      i++;
      continue;
    }
    if (ch === '/' && original[i + 1] === '/') {
      const end = original.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out += original.slice(i, stop);
      i = stop;
      continue;
    }
    // string and bytes literals, with their prefixes
    const prefix =
      ch === 'r' || ch === 'R' || ch === 'b' || ch === 'B'
        ? (/^(?:[rR][bB]?|[bB][rR]?)(?=['"])/.exec(original.slice(i, i + 3))?.[0] ?? '')
        : '';
    if (prefix !== '' || ch === '"' || ch === "'") {
      startToken();
      const raw = /[rR]/.test(prefix);
      const isBytes = /[bB]/.test(prefix);
      const q = original[i + prefix.length] as string;
      const triple = original.startsWith(q.repeat(3), i + prefix.length);
      const delim = triple ? q.repeat(3) : q;
      const contentStart = i + prefix.length + delim.length;
      let j = contentStart;
      let closed = false;
      while (j < n) {
        if (original.startsWith(delim, j)) {
          closed = true;
          break;
        }
        if (!triple && (original[j] === '\n' || original[j] === '\r')) break;
        if (original[j] === '\\' && !raw) j++;
        j++;
      }
      if (!closed) {
        // unterminated: let the engine report it
        out += original.slice(i);
        i = n;
        continue;
      }
      const content = original.slice(contentStart, j);
      const end = j + delim.length;
      if (isBytes && raw) {
        // same length: blank the prefix's first letter, then a plain bytes literal of placeholders
        out += ` b${delim}${'x'.repeat(content.length)}${delim}`;
        bytes.set(out.length, utf8.encode(content));
        changed = true;
      } else {
        out += original.slice(i, end);
        if (isBytes) {
          const decoded = decodeBytesLiteral(content);
          if (decoded !== undefined) bytes.set(out.length, decoded);
        }
      }
      i = end;
      last = 'literal';
      continue;
    }
    // backtick-quoted field names after `.` or `.?`
    if (ch === '`') {
      const end = original.indexOf('`', i + 1);
      const name = end === -1 ? '' : original.slice(i + 1, end);
      const width = name.length + 2;
      if ((last === '.' || last === '.?') && quotedIdent.test(name)) {
        let id: string | undefined;
        while (id === undefined && generated < 36 ** (width - 2)) {
          const candidate = `_${(generated++).toString(36)}`.padEnd(width, '_');
          if (!original.includes(candidate) && !quotedFields.has(candidate)) id = candidate;
        }
        if (id !== undefined) {
          startToken();
          quotedFields.set(id, name);
          out += id;
          i = end + 1;
          last = 'ident';
          changed = true;
          continue;
        }
      }
      out += ch;
      i++;
      last = 'op';
      continue;
    }
    // numbers (consumed whole so that `1.5` is not mistaken for a member access)
    if (
      digit.test(ch) ||
      (ch === '.' &&
        digit.test(original[i + 1] ?? '') &&
        last !== 'ident' &&
        last !== 'close' &&
        last !== 'literal')
    ) {
      startToken();
      const m = /^(?:0[xX][0-9a-fA-F]+[uU]?|[0-9]*(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?[uU]?)/.exec(
        original.slice(i),
      );
      const text = m?.[0] || ch;
      if (text.startsWith('.')) {
        inserts.push({ at: out.length, delta: 1 });
        out += '0';
        changed = true;
      }
      out += text;
      i += text.length;
      last = 'literal';
      continue;
    }
    if (identStart.test(ch)) {
      startToken();
      let j = i + 1;
      while (j < n && identPart.test(original[j] as string)) j++;
      out += original.slice(i, j);
      i = j;
      last = 'ident';
      continue;
    }
    // optional entries: `?` right after `[`, `{` or `,` inside a list or map literal
    if (
      ch === '?' &&
      (last === 'open' || last === 'comma') &&
      (brackets.at(-1) === '[' || brackets.at(-1) === '{')
    ) {
      out += ' ';
      i++;
      pendingOptional = true;
      changed = true;
      continue;
    }
    startToken();
    out += ch;
    i++;
    if (ch === '(' || ch === '[' || ch === '{') {
      // `x[…]` is an index and `T{…}` a message: only literals take optional entries
      const literal = ch === '(' || (last !== 'ident' && last !== 'close' && last !== 'literal');
      brackets.push(literal ? ch : `${ch}…`);
      last = 'open';
    } else if (ch === ')' || ch === ']' || ch === '}') {
      brackets.pop();
      last = 'close';
    } else if (ch === ',') last = 'comma';
    else if (ch === '.') last = '.';
    else if (ch === '?' && last === '.') last = '.?';
    else last = 'op';
  }

  const toOriginal = (offset: number): number => {
    let shift = 0;
    for (const e of inserts) if (e.at < offset) shift += e.delta;
    return offset - shift;
  };
  return {
    source: out,
    changed,
    shifted: inserts.length > 0,
    toOriginal,
    bytes,
    quotedFields,
    optionalEntries,
  };
}

/** Restores what `preprocess` rewrote, in the AST of `pre.source` (before type-checking). */
export function applyParsed(root: EngineNode, pre: Preprocessed): void {
  const nodes: EngineNode[] = [];
  walkAst(root, (node) => nodes.push(node));
  for (const node of nodes) {
    if (node.op === 'value' && node.args instanceof Uint8Array) {
      const b = pre.bytes.get(node.end);
      if (b !== undefined) node.args = b;
    } else if ((node.op === '.' || node.op === '.?') && Array.isArray(node.args)) {
      const field = pre.quotedFields.get(node.args[1] as string);
      if (field !== undefined) (node.args as unknown[])[1] = field;
    } else if (node.op === 'list' && pre.optionalEntries.size > 0) {
      const flags = (node.args as EngineNode[]).map((e) => pre.optionalEntries.has(e.start));
      if (flags.some(Boolean)) optionalList(node, flags);
    } else if (node.op === 'map' && pre.optionalEntries.size > 0) {
      const flags = (node.args as [EngineNode, EngineNode][]).map(([k]) => pre.optionalEntries.has(k.start));
      if (flags.some(Boolean)) optionalMap(node, flags);
    }
  }
  if (pre.shifted)
    for (const node of nodes) {
      const m = node as unknown as { pos: number; start: number; end: number };
      m.pos = pre.toOriginal(m.pos);
      m.start = pre.toOriginal(m.start);
      m.end = pre.toOriginal(m.end);
    }
}
