/**
 * Source pre-processing: CEL syntax the engine's lexer/parser (`@marcbachmann/cel-js` 8.0.0) does
 * not accept or decodes wrongly, rewritten before it parses and restored in the parsed AST (each
 * item is an upstream-fix candidate listed in the README):
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
import { Optional } from '@marcbachmann/cel-js';
import type { EngineNode } from './engine.js';
import { walkAst } from './engine.js';
import { evalError } from './library/values.js';

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

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;
const QUOTED_IDENT = /^[A-Za-z0-9_.\-/ ]+$/;
const SIMPLE_ESCAPES: Record<string, number> = {
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
    if (next in SIMPLE_ESCAPES) {
      out.push(SIMPLE_ESCAPES[next] as number);
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

/** Nothing to rewrite without a backtick, `?`, bytes prefix or a `.` before a digit. */
const NEEDS_SCAN = /[`?]|[bB][rR]?['"]|[rR][bB]['"]|\.\d/;
const identity = (o: number): number => o;

/** Rewrites `original` for the engine (see the module comment). */
export function preprocess(original: string): Preprocessed {
  if (!NEEDS_SCAN.test(original))
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
      if ((last === '.' || last === '.?') && QUOTED_IDENT.test(name)) {
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
      DIGIT.test(ch) ||
      (ch === '.' &&
        DIGIT.test(original[i + 1] ?? '') &&
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
    if (IDENT_START.test(ch)) {
      startToken();
      let j = i + 1;
      while (j < n && IDENT_PART.test(original[j] as string)) j++;
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

// The engine's checker and type objects, as far as the optional literals use them.
type Any = any;

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

interface MetaNode extends EngineNode {
  setMeta(key: string, value: unknown): MetaNode;
}

/** The element type of an optional entry (`optional<T>` → `T`); anything else is rejected. */
function optionalValueType(chk: Any, t: Any, node: EngineNode): Any {
  if (t.kind === 'optional') return t.valueType;
  if (t.kind === 'dyn') return t;
  throw chk.createError(
    'no_matching_overload',
    `optional entry must be an optional value, got '${t.name}'`,
    node,
  );
}

function unify(chk: Any, a: Any, b: Any): Any {
  if (a === undefined) return b;
  return a.unify(chk.registry, b) || chk.getType('dyn');
}

function present(v: unknown, node: EngineNode): { has: boolean; value?: unknown } {
  if (!(v instanceof Optional))
    throw evalError('optional entry must be an optional value', 'no_matching_overload');
  void node;
  return v.hasValue() ? { has: true, value: v.value() } : { has: false };
}

/** `[a, ?b]`: `b` is `optional<T>`; the element is included when it has a value. */
function optionalList(node: EngineNode, flags: boolean[]): void {
  const elems = node.args as EngineNode[];
  const m = node as MetaNode;
  m.setMeta('check', (chk: Any, _ast: unknown, ctx: unknown) => {
    let t: Any;
    elems.forEach((e, i) => {
      const et = chk.check(e, ctx);
      t = unify(chk, t, flags[i] ? optionalValueType(chk, et, e) : et);
    });
    return chk.registry.getListType(t);
  });
  m.evaluate = (ev: Any, _ast: unknown, ctx: unknown) => {
    const out: unknown[] = [];
    elems.forEach((e, i) => {
      const v = ev.run(e, ctx);
      if (!flags[i]) out.push(v);
      else {
        const p = present(v, e);
        if (p.has) out.push(p.value);
      }
    });
    return out;
  };
}

/** `{?k: v}`: `v` is `optional<V>`; the entry is included when it has a value. */
function optionalMap(node: EngineNode, flags: boolean[]): void {
  const entries = node.args as [EngineNode, EngineNode][];
  const m = node as MetaNode;
  m.setMeta('check', (chk: Any, _ast: unknown, ctx: unknown) => {
    let kt: Any;
    let vt: Any;
    entries.forEach(([k, v], i) => {
      kt = unify(chk, kt, chk.check(k, ctx));
      const t = chk.check(v, ctx);
      vt = unify(chk, vt, flags[i] ? optionalValueType(chk, t, v) : t);
    });
    return chk.registry.getMapType(kt, vt);
  });
  m.evaluate = (ev: Any, _ast: unknown, ctx: unknown) => {
    const out = new Map<unknown, unknown>();
    entries.forEach(([k, v], i) => {
      const key = ev.run(k, ctx);
      const value = ev.run(v, ctx);
      if (!flags[i]) out.set(key, value);
      else {
        const p = present(value, v);
        if (p.has) out.set(key, p.value);
      }
    });
    return [...out.keys()].every((x) => typeof x === 'string') ? Object.fromEntries(out) : out;
  };
}
