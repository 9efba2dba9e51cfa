import { type ApiObject, errors } from '@orchard/meta';
import type { ResourceDefinition } from '../registry/resource.js';

/**
 * The object filter of a list or watch: `labelSelector` and `fieldSelector` query parameters
 * compiled once per request. Field selectors support `metadata.name`, `metadata.namespace` and the
 * type's `selectableFields`; anything else is a 400, as upstream answers.
 */
export interface ObjectFilter {
  readonly empty: boolean;
  matches(obj: ApiObject): boolean;
  /** The exact `metadata.name` the field selector requires, if any (lets get-style watches narrow). */
  readonly name: string | undefined;
}

type Req = { key: string; op: '=' | '!=' | 'in' | 'notin' | 'exists' | '!'; values: string[] };

/** Equality- and set-based label selector (`a=b,c!=d,e in (f,g),!h,i`). */
export function parseLabelSelectorString(s: string): Req[] {
  const reqs: Req[] = [];
  let i = 0;
  const src = s.trim();
  const fail = (msg: string): never => {
    throw errors.badRequest(`unable to parse requirement: ${msg}`);
  };
  const skip = () => {
    while (i < src.length && src[i] === ' ') i++;
  };
  const ident = () => {
    skip();
    const m = /^[A-Za-z0-9][-A-Za-z0-9_./]*/.exec(src.slice(i));
    if (!m) fail(`found '${src.slice(i, i + 1)}', expected: identifier`);
    i += (m as RegExpExecArray)[0].length;
    return (m as RegExpExecArray)[0];
  };
  const value = () => {
    skip();
    const m = /^[A-Za-z0-9][-A-Za-z0-9_.]*/.exec(src.slice(i));
    if (!m) return '';
    i += m[0].length;
    return m[0];
  };
  while (i < src.length) {
    skip();
    if (src[i] === '!') {
      i++;
      reqs.push({ key: ident(), op: '!', values: [] });
    } else {
      const key = ident();
      skip();
      if (src.startsWith('==', i)) {
        i += 2;
        reqs.push({ key, op: '=', values: [value()] });
      } else if (src.startsWith('!=', i)) {
        i += 2;
        reqs.push({ key, op: '!=', values: [value()] });
      } else if (src[i] === '=') {
        i += 1;
        reqs.push({ key, op: '=', values: [value()] });
      } else if (/^(in|notin)\s*\(/.test(src.slice(i))) {
        const op = src.startsWith('notin', i) ? 'notin' : 'in';
        i = src.indexOf('(', i) + 1;
        const values: string[] = [];
        for (;;) {
          values.push(value());
          skip();
          if (src[i] === ',') i++;
          else if (src[i] === ')') {
            i++;
            break;
          } else fail(`found '${src.slice(i, i + 1)}', expected: ',', ')' or identifier`);
        }
        reqs.push({ key, op, values });
      } else reqs.push({ key, op: 'exists', values: [] });
    }
    skip();
    if (i < src.length) {
      if (src[i] !== ',') fail(`found '${src.slice(i, i + 1)}', expected: ',' or 'end of string'`);
      i++;
    }
  }
  return reqs;
}

function holds(r: Req, get: (k: string) => string | undefined): boolean {
  const v = get(r.key);
  switch (r.op) {
    case '=':
    case 'in':
      return v !== undefined && r.values.includes(v);
    case '!=':
    case 'notin':
      return v === undefined || !r.values.includes(v);
    case 'exists':
      return v !== undefined;
    case '!':
      return v === undefined;
  }
}

/** `a=b,c!=d` (also `==`); values may contain escaped `\,` `\=` `\\`. */
export function parseFieldSelectorString(s: string): Req[] {
  const reqs: Req[] = [];
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
    } else if (c === ',') {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  const unescapeValue = (v: string) => v.replace(/\\(.)/g, '$1');
  for (const p of parts) {
    if (p.trim() === '') continue;
    const m = /^([^=!]+)(==|!=|=)(.*)$/s.exec(p);
    if (!m) throw errors.badRequest(`invalid selector: '${s}'; can't understand '${p}'`);
    reqs.push({
      key: (m[1] as string).trim(),
      op: m[2] === '!=' ? '!=' : '=',
      values: [unescapeValue(m[3] as string)],
    });
  }
  return reqs;
}

export function compileFilter(
  def: ResourceDefinition,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): ObjectFilter {
  const labels = labelSelector ? parseLabelSelectorString(labelSelector) : [];
  const fields = fieldSelector ? parseFieldSelectorString(fieldSelector) : [];
  const known = (obj: ApiObject): Record<string, string> => ({
    'metadata.name': obj.metadata?.name ?? '',
    ...(def.namespaced ? { 'metadata.namespace': obj.metadata?.namespace ?? '' } : {}),
    ...(def.strategy.selectableFields?.(obj) ?? {}),
  });
  // Reject unknown field labels up front (with a sample object of the right shape).
  const sample = known({});
  for (const f of fields) {
    if (!(f.key in sample)) {
      throw errors.badRequest(
        `"${f.key}" is not a known field selector: only "${Object.keys(sample).join('", "')}"`,
      );
    }
  }
  const nameReq = fields.find((f) => f.key === 'metadata.name' && f.op === '=');
  return {
    empty: labels.length === 0 && fields.length === 0,
    name: nameReq?.values[0],
    matches(obj) {
      const l = (obj.metadata?.labels ?? {}) as Record<string, string>;
      for (const r of labels) if (!holds(r, (k) => l[k])) return false;
      if (fields.length > 0) {
        const fv = known(obj);
        for (const r of fields) if (!holds(r, (k) => fv[k])) return false;
      }
      return true;
    },
  };
}
