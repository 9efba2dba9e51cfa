/**
 * Field selectors: the `fieldSelector` query string (upstream `fields.ParseSelector`): terms
 * `field=value`, `field==value`, `field!=value` joined by `,` (AND). In values, `\` escapes `\`, `,`
 * and `=`; an unescaped `,`/`=` or any other escape is an error. Each resource type supports a fixed
 * set of fields (`metadata.name` and `metadata.namespace` everywhere); selecting on any other field is
 * a 400 `field label not supported: <field>`.
 */
import type { ApiObject } from './object.js';
import { errors } from './status.js';

/** `==` parses as `=`: they mean the same. */
export type FieldSelectorOperator = '=' | '!=';

/** One `field op value` term of a field selector. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldSelectorOperator;
  readonly value: string;
}

/** The selectable fields of one object: field path → string value. */
export type Fields = Readonly<Record<string, string>>;

/** A parsed field selector: immutable; terms in sorted order. */
export interface ParsedFieldSelector {
  /** True when every term holds; a missing field reads as `""` (so `f=` matches a missing field). */
  matches(fields: Fields): boolean;
  isEmpty(): boolean;
  requirements(): readonly FieldRequirement[];
  /** The value `field` must equal for this selector to match, if a `=` term names it. */
  requiresExactMatch(field: string): string | undefined;
  /** The canonical string form, values escaped. */
  toString(): string;
}

/** The fields every resource supports. */
export const defaultSelectableFields: readonly string[] = Object.freeze([
  'metadata.name',
  'metadata.namespace',
]);

/** Escapes `\`, `,` and `=` in a value (upstream `fields.EscapeValue`). */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Reverses `escapeFieldValue`; throws 400 on an unknown escape or an unescaped `,`/`=`. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw errors.badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    // Upstream prints the rune with %v, i.e. as its code point number.
    else if (c === ',' || c === '=') {
      throw errors.badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw errors.badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits on commas not preceded by a backslash escape; escapes stay in the parts. */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

/** The first operator of a term, scanning left to right (the field name is not unescaped). */
function splitTerm(term: string): [string, (typeof termOperators)[number], string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

function formatTerm(r: FieldRequirement): string {
  return `${r.field}${r.operator}${escapeFieldValue(r.value)}`;
}

class Selector implements ParsedFieldSelector {
  readonly #reqs: readonly FieldRequirement[];
  constructor(reqs: FieldRequirement[]) {
    this.#reqs = Object.freeze(reqs);
  }
  matches(fields: Fields): boolean {
    for (const r of this.#reqs) {
      const v = Object.hasOwn(fields, r.field) ? fields[r.field] : '';
      if ((v === r.value) !== (r.operator === '=')) return false;
    }
    return true;
  }
  isEmpty(): boolean {
    return this.#reqs.length === 0;
  }
  requirements(): readonly FieldRequirement[] {
    return this.#reqs;
  }
  requiresExactMatch(field: string): string | undefined {
    for (const r of this.#reqs) if (r.field === field && r.operator === '=') return r.value;
    return undefined;
  }
  toString(): string {
    return this.#reqs.map(formatTerm).join(',');
  }
}

/** The selector with no terms: matches every object. */
export const everythingFieldSelector: ParsedFieldSelector = new Selector([]);

/**
 * Parses the `fieldSelector` query string; `""` selects everything, empty terms are skipped.
 * Throws `ApiError` 400 BadRequest with upstream's messages.
 */
export function parseFieldSelector(selector: string): ParsedFieldSelector {
  const parts = splitTerms(selector).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw errors.badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    const [field, op, rhs] = t;
    reqs.push(Object.freeze({ field, operator: op === '!=' ? '!=' : '=', value: unescapeFieldValue(rhs) }));
  }
  return new Selector(reqs);
}

/** The selector `f1=v1,f2=v2` of a field set (upstream `fields.SelectorFromSet`). */
export function fieldSelectorFromSet(fields: Fields): ParsedFieldSelector {
  return new Selector(
    Object.keys(fields)
      .sort()
      .map((field) => Object.freeze({ field, operator: '=' as const, value: fields[field] as string })),
  );
}

/** The canonical string form of a parsed field selector (values escaped). */
export function formatFieldSelector(sel: ParsedFieldSelector): string {
  return sel.toString();
}

/**
 * Checks every field of `sel` against the fields a resource type supports (`defaultSelectableFields`
 * plus its own, e.g. `status.phase`); throws 400 `field label not supported: <field>` for the first
 * unsupported one.
 */
export function validateFieldSelector(
  sel: ParsedFieldSelector,
  supported: Iterable<string> | ((field: string) => boolean) = defaultSelectableFields,
): void {
  const ok =
    typeof supported === 'function'
      ? supported
      : (
          (set) => (f: string) =>
            set.has(f)
        )(new Set(supported));
  for (const r of sel.requirements()) {
    if (!ok(r.field)) throw errors.badRequest(`field label not supported: ${r.field}`);
  }
}

/**
 * The default field set of an object: `metadata.name` and `metadata.namespace` (`""` when absent),
 * merged with a resource type's own fields (`extra`, e.g. `{ type: secret.type }`).
 */
export function objectFields(
  obj: ApiObject,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> {
  const fields: Record<string, string> = {
    'metadata.name': obj.metadata?.name ?? '',
    'metadata.namespace': obj.metadata?.namespace ?? '',
  };
  if (extra) Object.assign(fields, extra);
  return fields;
}
