/**
 * JSON values as the field manager sees them: the ordering and equality of upstream
 * structured-merge-diff's `value` package, on plain decoded JSON.
 */

export type JsonMap = { [key: string]: unknown };

/** Sets an own property even for `__proto__` (field names come from request bodies). */
export { setOwn as setKey } from '@orchard/meta/internal';

export function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeRank(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
    case 'object':
      if (v === null) return 5;
      return Array.isArray(v) ? 3 : 4;
    default:
      return 6;
  }
}

/**
 * Total order over values, as upstream: numbers (ints and floats compared numerically) < strings <
 * booleans < lists < maps < null. Lists compare element-wise then by length; maps by sorted keys.
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    case 2:
      return a === b ? 0 : a === false ? -1 : 1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      const n = Math.min(la.length, lb.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length === lb.length ? 0 : la.length < lb.length ? -1 : 1;
    }
    case 4: {
      const ma = a as JsonMap;
      const mb = b as JsonMap;
      const ka = Object.keys(ma).sort();
      const kb = Object.keys(mb).sort();
      const n = Math.min(ka.length, kb.length);
      for (let i = 0; i < n; i++) {
        const x = ka[i] as string;
        const y = kb[i] as string;
        if (x !== y) return x < y ? -1 : 1;
        const c = compareValues(ma[x], mb[y]);
        if (c !== 0) return c;
      }
      return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
    }
    default:
      return 0;
  }
}

const htmlUnsafe = /[<>&\u2028\u2029]/;
const htmlUnsafeAll = /[<>&\u2028\u2029]/g;
const htmlEscapes: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON text of a value as upstream writes it inside `k:`/`v:` keys: map keys sorted, and `<`, `>`,
 * `&` escaped as Go's encoding/json does.
 */
export function canonicalJson(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'string': {
      const q = JSON.stringify(v);
      return htmlUnsafe.test(v) ? q.replace(htmlUnsafeAll, (c) => htmlEscapes[c] as string) : q;
    }
  }
  if (v === null || v === undefined) return 'null';
  const s = rawJson(v);
  return htmlUnsafe.test(s) ? s.replace(htmlUnsafeAll, (c) => htmlEscapes[c] as string) : s;
}

function rawJson(v: unknown): string {
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${rawJson(v[k])}`).join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(rawJson).join(',')}]`;
  return JSON.stringify(v) ?? 'null';
}

/** Go's `%q`-like quoting used when printing key values in paths (`[name="app"]`). */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(formatValue).join(',')}]`;
  if (isMap(v))
    return Object.keys(v)
      .map((k) => `${k}=${formatValue(v[k])}`)
      .join('');
  return String(v);
}
