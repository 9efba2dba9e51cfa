/**
 * Duplicate-field detection for field validation (spec doc 1 §4.10). `JSON.parse` keeps the last
 * of duplicate keys silently; a single-pass scanner finds them, but it only runs when a cheap
 * check says the body may hold one:
 *
 * every object key in JSON text is a string immediately followed (after whitespace) by `:`, and a
 * `"` inside a string is always escaped, so a `"` followed by `:` inside a string can only come
 * from a `\"` escape. Hence `count(/"\s*:/)` ≥ keys in the text ≥ keys in the parsed value, with
 * the parsed count smaller exactly when keys were collapsed. If the regex count equals the parsed
 * key count there is no duplicate, and the scanner never runs.
 */
import { isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { indexPath, joinPath } from './field-error.js';

/** Number of object keys in a parsed JSON value. */
export function countKeys(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) n += countKeys(x);
    return n;
  }
  for (const k in v as Record<string, unknown>) n += 1 + countKeys((v as Record<string, unknown>)[k]);
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

/**
 * Paths of duplicate fields in a JSON text whose parse result is `parsed` (`metadata.name`,
 * `spec.containers[0].image`), in document order; `[]` after only the cheap check when there are none.
 */
export function findDuplicateFieldsJson(text: string, parsed: unknown): string[] {
  if (countKeyLike(text) === countKeys(parsed)) return [];
  return scanJsonDuplicates(text);
}

interface Frame {
  obj: boolean;
  path: string;
  keys: Set<string> | undefined;
  index: number;
  pendingKey: string | undefined;
}

/** The full scanner: one pass over well-formed JSON text (call after `JSON.parse` succeeded). */
export function scanJsonDuplicates(text: string): string[] {
  const out: string[] = [];
  const stack: Frame[] = [];
  let expectKey = false;
  const n = text.length;
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.obj) return joinPath(top.path, top.pendingKey ?? '');
    return indexPath(top.path, top.index);
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      i++;
      for (; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      if (expectKey) {
        const raw = text.slice(start + 1, i);
        const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : raw;
        const top = stack[stack.length - 1]!;
        top.keys ??= new Set();
        if (top.keys.has(key)) out.push(joinPath(top.path, key));
        else top.keys.add(key);
        top.pendingKey = key;
        expectKey = false;
      }
    } else if (c === 0x7b /* { */) {
      stack.push({ obj: true, path: childPath(), keys: undefined, index: 0, pendingKey: undefined });
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push({ obj: false, path: childPath(), keys: undefined, index: 0, pendingKey: undefined });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.obj) expectKey = true;
      else if (top) top.index++;
    }
  }
  return out;
}

export interface YamlDuplicate {
  /** Field path of the repeated key. */
  path: string;
  /** 1-based line of the repeated key. */
  line: number;
  key: string;
}

/**
 * Parses one YAML document allowing duplicate keys (the last wins, as with JSON) and reports
 * them. Throws the `yaml` package's error for malformed YAML.
 */
export function parseYamlWithDuplicates(text: string): { value: unknown; duplicates: YamlDuplicate[] } {
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, keepSourceTokens: false });
  if (doc.errors.length > 0) throw doc.errors[0];
  const duplicates: YamlDuplicate[] = [];
  const lineOf = lineIndex(text);
  const visit = (node: unknown, path: string): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const keyNode = pair.key as YamlNode | null;
        const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
        const p = joinPath(path, key);
        if (seen.has(key)) duplicates.push({ path: p, key, line: lineOf(keyNode?.range?.[0] ?? 0) });
        seen.add(key);
        visit(pair.value, p);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        visit(item, indexPath(path, i));
      });
    }
  };
  visit(doc.contents, '');
  return { value: doc.toJS({ maxAliasCount: 100 }), duplicates };
}

function lineIndex(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** The Warning / strict-error text upstream uses for an unknown field. */
export function unknownFieldMessage(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

/** The Warning / strict-error text upstream uses for a duplicate JSON field. */
export function duplicateFieldMessage(path: string): string {
  return `duplicate field ${JSON.stringify(path)}`;
}

/** The text upstream's YAML decoder gives for a duplicate key. */
export function yamlDuplicateMessage(d: YamlDuplicate): string {
  return `line ${d.line}: key ${JSON.stringify(d.key)} already set in map`;
}
