/**
 * Media types as they appear in `Content-Type` and `Accept` (RFC 9110 §8.3.1, §12.5.1):
 * `type/subtype;param=value`. Parameter names are case-insensitive and lower-cased here; values
 * keep their case (`as=Table`). Pure string handling, no Node built-ins.
 */

import { patchMediaTypes } from '@orchard/meta';
/** A parsed media type: type, subtype and parameters. */
export interface MediaType {
  /** `application` (lower-cased; `*` in a wildcard range). */
  readonly type: string;
  /** `json`, `vnd.orch.protobuf`, `*`. */
  readonly subtype: string;
  /** Parameters except `q`, names lower-cased. */
  readonly params: Readonly<Record<string, string>>;
}

/** One range of an `Accept` header, with its quality and position. */
export interface AcceptRange extends MediaType {
  /** Quality 0..1 (default 1). */
  readonly q: number;
  /** Position in the header, for a stable order among equal qualities. */
  readonly index: number;
}

/** The media types the API speaks (spec doc 1 §4.3). Flavor-specific ones come from the flavor. */
export const mediaTypes = Object.freeze({
  json: 'application/json',
  yaml: 'application/yaml',
  cbor: 'application/cbor',
  cborSeq: 'application/cbor-seq',
  applyPatchYaml: patchMediaTypes.apply,
  applyPatchCbor: patchMediaTypes.applyCbor,
  jsonPatch: patchMediaTypes.json,
  mergePatch: patchMediaTypes.merge,
  strategicMergePatch: patchMediaTypes.strategic,
  textPlain: 'text/plain',
});

/** Splits on `sep` outside double-quoted strings. */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '"') quoted = !quoted;
    if (c === '\\' && quoted && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
      continue;
    }
    if (c === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  return v;
}

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses one media type. Returns undefined when it is not `type/subtype` made of tokens. */
export function parseMediaType(value: string): (MediaType & { q?: number }) | undefined {
  const parts = splitOutsideQuotes(value, ';');
  const full = (parts[0] ?? '').trim().toLowerCase();
  const slash = full.indexOf('/');
  if (slash <= 0 || slash === full.length - 1) return undefined;
  const type = full.slice(0, slash);
  const subtype = full.slice(slash + 1);
  if (!token.test(type) || !token.test(subtype)) return undefined;
  const params: Record<string, string> = {};
  let q: number | undefined;
  for (const raw of parts.slice(1)) {
    const p = raw.trim();
    if (p === '') continue;
    const eq = p.indexOf('=');
    if (eq <= 0) return undefined;
    const name = p.slice(0, eq).trim().toLowerCase();
    const val = unquote(p.slice(eq + 1).trim());
    if (!token.test(name)) return undefined;
    if (name === 'q') {
      const n = Number(val);
      if (!Number.isFinite(n) || n < 0 || n > 1) return undefined;
      q = n;
    } else params[name] = val;
  }
  return q === undefined ? { type, subtype, params } : { type, subtype, params, q };
}

/**
 * Parses an `Accept` header into ranges, best first (quality descending, then header order).
 * Malformed ranges are skipped (as upstream does); an empty or missing header means `*\/*`.
 */
export function parseAccept(header: string | undefined | null): AcceptRange[] {
  if (header === undefined || header === null || header.trim() === '') {
    return [{ type: '*', subtype: '*', params: {}, q: 1, index: 0 }];
  }
  const out: AcceptRange[] = [];
  splitOutsideQuotes(header, ',').forEach((part, index) => {
    if (part.trim() === '') return;
    const mt = parseMediaType(part);
    if (!mt) return;
    out.push({ type: mt.type, subtype: mt.subtype, params: mt.params, q: mt.q ?? 1, index });
  });
  return out.sort((a, b) => b.q - a.q || a.index - b.index);
}

/** `type/subtype` without parameters. */
export function essence(mt: MediaType): string {
  return `${mt.type}/${mt.subtype}`;
}

/** Formats a media type with its parameters in the given order (`application/json;g=…;v=…`). */
export function formatMediaType(mt: MediaType): string {
  let s = essence(mt);
  for (const [k, v] of Object.entries(mt.params)) {
    s += `;${k}=${token.test(v) ? v : `"${v.replace(/(["\\])/g, '\\$1')}"`}`;
  }
  return s;
}
