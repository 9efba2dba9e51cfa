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
import { mayHoldDuplicateKeys } from '@orchard/meta/internal';
import { indexPath, joinPath } from './field-error.js';

/**
 * Paths of duplicate fields in a JSON text whose parse result is `parsed` (`metadata.name`,
 * `spec.containers[0].image`), in document order; `[]` after only the cheap check when there are none.
 */
export function findDuplicateFieldsJson(text: string, parsed: unknown): string[] {
  if (!mayHoldDuplicateKeys(text, parsed)) return [];
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

/** The Warning / strict-error text upstream uses for an unknown field. */
export function unknownFieldMessage(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

/** The Warning / strict-error text upstream uses for a duplicate JSON field. */
export function duplicateFieldMessage(path: string): string {
  return `duplicate field ${JSON.stringify(path)}`;
}
