/**
 * Label selectors: the `labelSelector` query string (upstream `labels.Parse` grammar, errors and
 * canonical form) and the structured `LabelSelector` of object specs (`matchLabels`/`matchExpressions`).
 *
 * Grammar (comma = AND, whitespace around tokens ignored):
 *   requirement := key | '!' key | key ('=' | '==' | '!=') value? | key ('in' | 'notin') '(' values ')'
 *                | key ('>' | '<') integer
 * Keys are qualified names, values label values. Parse errors are `ApiError` 400 BadRequest with
 * upstream's messages.
 */
import { aggregateMessage, type FieldCause, fieldErrors, formatFieldCause } from './field-errors.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import { errors } from './status.js';

/** Operators of a requirement, spelled as upstream's `selection.Operator`. */
export type LabelSelectorOperator = '!' | '=' | '==' | 'in' | '!=' | 'notin' | 'exists' | 'gt' | 'lt';

/** Labels of an object. */
export type Labels = Readonly<Record<string, string>>;

/** One ANDed term of a selector. `values` is sorted and deduplicated when parsed. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelSelectorOperator;
  readonly values: readonly string[];
}

/** A parsed label selector: immutable; requirements sorted by key. */
export interface ParsedLabelSelector {
  /** True when every requirement holds for `labels` (absent/null labels = no labels). */
  matches(labels: Labels | null | undefined): boolean;
  /** True for the selector that selects everything (no requirements). */
  isEmpty(): boolean;
  requirements(): readonly LabelRequirement[];
  /** The value `label` must have for this selector to match (from `=`, `==` or `in` with one value). */
  requiresExactMatch(label: string): string | undefined;
  /** A new selector with more requirements. */
  add(...reqs: LabelRequirement[]): ParsedLabelSelector;
  /** The canonical string form (`formatLabelSelector`). */
  toString(): string;
}

/** The structured selector of object specs (upstream `metav1.LabelSelector`). */
export interface LabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

/** The operators of `matchExpressions`. */
export type LabelSelectorRequirementOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** One `matchExpressions` entry of a structured LabelSelector. */
export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorRequirementOperator | (string & {});
  values?: string[] | null;
}

const has = (labels: Labels | null | undefined, key: string): labels is Labels =>
  labels != null && Object.hasOwn(labels, key);

const int64Re = /^[+-]?[0-9]+$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(s, 10, 64); undefined when invalid or out of range. */
function parseInt64(s: string): bigint | undefined {
  if (!int64Re.test(s)) return undefined;
  const v = BigInt(s);
  return v < int64Min || v > int64Max ? undefined : v;
}

function requirementMatches(r: LabelRequirement, labels: Labels | null | undefined): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(labels, r.key) && r.values.includes(labels[r.key] as string);
    case 'notin':
    case '!=':
      return !has(labels, r.key) || !r.values.includes(labels[r.key] as string);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const lv = parseInt64(labels[r.key] as string);
      const rv = parseInt64(r.values[0] as string);
      if (lv === undefined || rv === undefined) return false;
      return r.operator === 'gt' ? lv > rv : lv < rv;
    }
    default:
      return false;
  }
}

/** A requirement's canonical string form, e.g. `env in (a,b)`, `!k`, `tier=web`. */
export function formatLabelRequirement(r: LabelRequirement): string {
  let s = r.operator === '!' ? `!${r.key}` : r.key;
  switch (r.operator) {
    case 'exists':
    case '!':
      return s;
    case 'in':
    case 'notin':
      return `${s} ${r.operator} (${[...r.values].sort().join(',')})`;
    case 'gt':
      s += '>';
      break;
    case 'lt':
      s += '<';
      break;
    default:
      s += r.operator;
  }
  return s + (r.values.length === 1 ? (r.values[0] as string) : [...r.values].sort().join(','));
}

const byKey = (a: LabelRequirement, b: LabelRequirement) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

class Selector implements ParsedLabelSelector {
  readonly #reqs: readonly LabelRequirement[];
  constructor(reqs: readonly LabelRequirement[]) {
    this.#reqs = Object.freeze([...reqs].sort(byKey));
  }
  matches(labels: Labels | null | undefined): boolean {
    for (const r of this.#reqs) if (!requirementMatches(r, labels)) return false;
    return true;
  }
  isEmpty(): boolean {
    return this.#reqs.length === 0;
  }
  requirements(): readonly LabelRequirement[] {
    return this.#reqs;
  }
  requiresExactMatch(label: string): string | undefined {
    for (const r of this.#reqs) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) {
        return r.values[0];
      }
      return undefined;
    }
    return undefined;
  }
  add(...reqs: LabelRequirement[]): ParsedLabelSelector {
    return new Selector([...this.#reqs, ...reqs]);
  }
  toString(): string {
    return formatLabelSelector(this);
  }
}

/** Matches nothing (the selector of a null structured selector). */
class NothingSelector implements ParsedLabelSelector {
  matches(): boolean {
    return false;
  }
  isEmpty(): boolean {
    return false;
  }
  requirements(): readonly LabelRequirement[] {
    return [];
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
  add(): ParsedLabelSelector {
    return this;
  }
  toString(): string {
    return '';
  }
}

/** The selector with no requirements: matches every object. */
export const everythingLabelSelector: ParsedLabelSelector = new Selector([]);
/** The selector that matches no object (a null `LabelSelector`). */
export const nothingLabelSelector: ParsedLabelSelector = new NothingSelector();

/** The canonical string form: requirements sorted by key, joined by `,`; values sorted. */
export function formatLabelSelector(sel: ParsedLabelSelector): string {
  return sel.requirements().map(formatLabelRequirement).join(',');
}

/** Validates a requirement as upstream's `NewRequirement`; returns its field causes (empty = valid). */
function requirementCauses(
  key: string,
  op: LabelSelectorOperator,
  values: readonly string[],
  path: string,
): FieldCause[] {
  const causes: FieldCause[] = [];
  const prefix = path ? `${path}.` : '';
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) causes.push(fieldErrors.invalid(`${prefix}key`, key, keyErrs.join('; ')));
  const vpath = `${prefix}values`;
  switch (op) {
    case 'in':
    case 'notin':
      if (values.length === 0) {
        causes.push(
          fieldErrors.invalid(vpath, values, "for 'in', 'notin' operators, values set can't be empty"),
        );
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) {
        causes.push(
          fieldErrors.invalid(vpath, values, 'exact-match compatibility requires one single value'),
        );
      }
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) {
        causes.push(
          fieldErrors.invalid(vpath, values, 'values set must be empty for exists and does not exist'),
        );
      }
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) {
        causes.push(
          fieldErrors.invalid(vpath, values, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      }
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          causes.push(
            fieldErrors.invalid(
              `${vpath}[${i}]`,
              v,
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          );
        }
      });
      break;
    default:
      causes.push(
        fieldErrors.notSupported(`${prefix}operator`, op, [
          '!',
          '=',
          '==',
          'in',
          '!=',
          'notin',
          'exists',
          'gt',
          'lt',
        ]),
      );
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as string;
    const errs = isValidLabelValue(v);
    if (errs.length) causes.push(fieldErrors.invalid(`${vpath}[${i}][${key}]`, v, errs.join('; ')));
  }
  return causes;
}

/**
 * A validated requirement (upstream `labels.NewRequirement`). Throws 400 BadRequest when the key,
 * operator or values are invalid.
 */
export function createLabelRequirement(
  key: string,
  operator: LabelSelectorOperator,
  values: readonly string[] = [],
): LabelRequirement {
  const causes = requirementCauses(key, operator, values, '');
  if (causes.length) throw errors.badRequest(aggregateMessage(causes));
  return Object.freeze({ key, operator, values: Object.freeze([...values]) });
}

// ---- lexer ----

type Tok = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'ident' | 'in' | '<' | '!=' | 'notin' | '(';

interface Item {
  tok: Tok;
  lit: string;
}

const symbolTokens: Record<string, Tok> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  '<': '<',
  '!=': '!=',
  '(': '(',
};

const isWhitespace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string) =>
  c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';

/** The character at `i`, or NUL past the end (a NUL also ends the input, as upstream's reader). */
function charAt(s: string, i: number): string {
  return i < s.length ? (s[i] as string) : '\0';
}

function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  // A NUL ends the input, as in upstream's byte reader.
  for (;;) {
    while (isWhitespace(charAt(s, pos))) pos++;
    const ch = charAt(s, pos);
    if (ch === '\0') {
      items.push({ tok: 'eos', lit: '' });
      return items;
    }
    if (isSpecial(ch)) {
      let buf = '';
      let last: Item | undefined;
      while (isSpecial(charAt(s, pos))) {
        buf += charAt(s, pos);
        const t = symbolTokens[buf];
        if (t) {
          last = { tok: t, lit: buf };
          pos++;
        } else if (last) {
          break;
        } else {
          pos++;
        }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
      continue;
    }
    const start = pos;
    while (charAt(s, pos) !== '\0' && !isWhitespace(charAt(s, pos)) && !isSpecial(charAt(s, pos))) pos++;
    const word = s.slice(start, pos);
    items.push({ tok: word === 'in' ? 'in' : word === 'notin' ? 'notin' : 'ident', lit: word });
  }
}

// ---- parser ----

class ParseError extends Error {}

/** Upstream's recursive-descent parser; `values` context reads `in`/`notin` as identifiers. */
class Parser {
  #items: Item[];
  #pos = 0;
  constructor(s: string) {
    this.#items = lex(s);
  }
  #peek(values: boolean): Item {
    const it = this.#items[this.#pos] as Item;
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'ident', lit: it.lit } : it;
  }
  #next(values: boolean): Item {
    const it = this.#peek(values);
    if (this.#pos < this.#items.length - 1) this.#pos++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.#peek(true);
      if (tok === 'ident' || tok === '!') {
        let r: LabelRequirement;
        try {
          r = this.#requirement();
        } catch (e) {
          throw new ParseError(`unable to parse requirement: ${(e as Error).message}`);
        }
        reqs.push(r);
        const after = this.#next(true);
        if (after.tok === 'eos') return reqs;
        if (after.tok === ',') {
          const n = this.#peek(true);
          if (n.tok !== 'ident' && n.tok !== '!') {
            throw new ParseError(`found '${n.lit}', expected: identifier after ','`);
          }
          continue;
        }
        throw new ParseError(`found '${after.lit}', expected: ',' or 'end of string'`);
      }
      if (tok === 'eos') return reqs;
      throw new ParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  #requirement(): LabelRequirement {
    let op: LabelSelectorOperator | undefined;
    let t = this.#next(true);
    if (t.tok === '!') {
      op = '!';
      t = this.#next(true);
    }
    if (t.tok !== 'ident') throw new ParseError(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length)
      throw new ParseError(formatFieldCause(fieldErrors.invalid('', key, keyErrs.join('; '))));
    const la = this.#peek(true).tok;
    if (op === undefined && (la === 'eos' || la === ',')) op = 'exists';
    if (op === 'exists' || op === '!') return this.#build(key, op, []);

    const o = this.#next(false);
    let values: string[];
    switch (o.tok) {
      case 'in':
      case 'notin':
        values = this.#setValues();
        return this.#build(key, o.tok, values);
      case '=':
      case '==':
      case '!=':
        return this.#build(key, o.tok, this.#exactValue());
      case '>':
        return this.#build(key, 'gt', this.#exactValue());
      case '<':
        return this.#build(key, 'lt', this.#exactValue());
      default:
        throw new ParseError(`found '${o.lit}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  #build(key: string, op: LabelSelectorOperator, values: string[]): LabelRequirement {
    const causes = requirementCauses(key, op, values, '');
    if (causes.length) throw new ParseError(aggregateMessage(causes));
    return Object.freeze({ key, operator: op, values: Object.freeze(values) });
  }

  #exactValue(): string[] {
    const la = this.#peek(true).tok;
    if (la === 'eos' || la === ',') return [''];
    const t = this.#next(true);
    if (t.tok === 'ident') return [t.lit];
    throw new ParseError(`found '${t.lit}', expected: identifier`);
  }

  #setValues(): string[] {
    const open = this.#next(true);
    if (open.tok !== '(') throw new ParseError(`found '${open.lit}' expected: '('`);
    const la = this.#peek(true);
    if (la.tok === 'ident' || la.tok === ',') {
      const set = this.#identifierList();
      const close = this.#next(true);
      if (close.tok !== ')') throw new ParseError(`found '${la.lit}', expected: ')'`);
      return [...set].sort();
    }
    if (la.tok === ')') {
      this.#next(true);
      return [''];
    }
    throw new ParseError(`found '${la.lit}', expected: ',', ')' or identifier`);
  }

  #identifierList(): Set<string> {
    const set = new Set<string>();
    for (;;) {
      const t = this.#next(true);
      if (t.tok === 'ident') {
        set.add(t.lit);
        const n = this.#peek(true);
        if (n.tok === ',') continue;
        if (n.tok === ')') return set;
        throw new ParseError(`found '${n.lit}', expected: ',' or ')'`);
      }
      if (t.tok === ',') {
        if (set.size === 0) set.add('');
        const n = this.#peek(true);
        if (n.tok === ')') {
          set.add('');
          return set;
        }
        if (n.tok === ',') {
          this.#next(true);
          set.add('');
        }
        continue;
      }
      throw new ParseError(`found '${t.lit}', expected: ',', or identifier`);
    }
  }
}

/**
 * Parses the `labelSelector` query string. The empty string selects everything.
 * Throws `ApiError` 400 BadRequest with upstream's parser message.
 */
export function parseLabelSelector(selector: string): ParsedLabelSelector {
  try {
    return new Selector(new Parser(selector).parse());
  } catch (e) {
    if (e instanceof ParseError) throw errors.badRequest(e.message);
    throw e;
  }
}

/** The selector `k1=v1,k2=v2` of a label set (upstream `SelectorFromSet`). Throws 400 when invalid. */
export function labelSelectorFromSet(labels: Labels | null | undefined): ParsedLabelSelector {
  if (!labels) return everythingLabelSelector;
  return new Selector(Object.entries(labels).map(([k, v]) => createLabelRequirement(k, '=', [v])));
}

const structuredOps: Record<string, LabelSelectorOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Converts the structured form (upstream `LabelSelectorAsSelector`): null/undefined selects nothing,
 * `{}` selects everything. Throws 400 BadRequest on an invalid key, value or operator.
 */
export function labelSelectorFromObject(ps: LabelSelector | null | undefined): ParsedLabelSelector {
  if (ps == null) return nothingLabelSelector;
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(ps.matchLabels ?? {})) reqs.push(createLabelRequirement(k, '=', [v]));
  for (const e of ps.matchExpressions ?? []) {
    const op = Object.hasOwn(structuredOps, e.operator) ? structuredOps[e.operator] : undefined;
    if (!op) throw errors.badRequest(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    reqs.push(createLabelRequirement(e.key, op, e.values ?? []));
  }
  return reqs.length === 0 ? everythingLabelSelector : new Selector(reqs);
}

/**
 * The structured form of a parsed selector (upstream `ParseToLabelSelector`): `=`/`==` become
 * `matchLabels`, set-based and existence requirements `matchExpressions`. Throws 400 for `!=`, `gt`,
 * `lt`, which the structured form cannot express.
 */
export function labelSelectorToObject(sel: ParsedLabelSelector): LabelSelector {
  const out: LabelSelector = {};
  const exprs: LabelSelectorRequirement[] = [];
  for (const r of sel.requirements()) {
    switch (r.operator) {
      case '=':
      case '==':
        out.matchLabels ??= {};
        out.matchLabels[r.key] = r.values[0] as string;
        break;
      case 'in':
      case 'notin':
        exprs.push({
          key: r.key,
          operator: r.operator === 'in' ? 'In' : 'NotIn',
          values: [...r.values],
        });
        break;
      case 'exists':
      case '!':
        exprs.push({
          key: r.key,
          operator: r.operator === 'exists' ? 'Exists' : 'DoesNotExist',
        });
        break;
      default:
        throw errors.badRequest(`invalid operator: ${r.operator}`);
    }
  }
  if (exprs.length) out.matchExpressions = exprs;
  return out;
}

/** Options of `validateLabelSelector` (tolerating stored invalid label values on update). */
export interface ValidateLabelSelectorOptions {
  /** Skip label-value checks of `matchExpressions[].values` (upstream keeps stored invalid values valid on update). Default false. */
  allowInvalidLabelValueInSelector?: boolean;
}

/**
 * Validates a structured selector inside an object (upstream `ValidateLabelSelector`), returning causes
 * for a 422 at `fieldPath` (e.g. `spec.selector`).
 */
export function validateLabelSelector(
  ps: LabelSelector | null | undefined,
  fieldPath: string,
  options: ValidateLabelSelectorOptions = {},
): FieldCause[] {
  const causes: FieldCause[] = [];
  if (ps == null) return causes;
  const ml = `${fieldPath}.matchLabels`;
  for (const k of Object.keys(ps.matchLabels ?? {}).sort()) {
    const v = (ps.matchLabels as Record<string, string>)[k] as string;
    for (const m of isQualifiedName(k)) causes.push(fieldErrors.invalid(ml, k, m));
    for (const m of isValidLabelValue(v)) causes.push(fieldErrors.invalid(ml, v, m));
  }
  (ps.matchExpressions ?? []).forEach((e, i) => {
    const p = `${fieldPath}.matchExpressions[${i}]`;
    const n = e.values?.length ?? 0;
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (n === 0)
          causes.push(
            fieldErrors.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
          );
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (n > 0) {
          causes.push(
            fieldErrors.forbidden(
              `${p}.values`,
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          );
        }
        break;
      default:
        causes.push(fieldErrors.invalid(`${p}.operator`, e.operator, 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(e.key)) causes.push(fieldErrors.invalid(`${p}.key`, e.key, m));
    if (!options.allowInvalidLabelValueInSelector) {
      (e.values ?? []).forEach((v, j) => {
        for (const m of isValidLabelValue(v)) causes.push(fieldErrors.invalid(`${p}.values[${j}]`, v, m));
      });
    }
  });
  return causes;
}
