/**
 * The lexer and recursive-descent parser of the `labelSelector` query string (upstream
 * `labels.Parse`), with upstream's error messages.
 */
import { aggregateMessage, fieldErrors, formatFieldCause } from './field-errors.js';
import { type LabelRequirement, type LabelSelectorOperator, requirementCauses } from './label-requirement.js';
import { isQualifiedName } from './names.js';

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

/** A syntax or requirement error of the query string (becomes a 400 BadRequest). */
export class ParseError extends Error {}

/** Upstream's recursive-descent parser; `values` context reads `in`/`notin` as identifiers. */
export class Parser {
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
