/**
 * The JSONPath subset of upstream's `k8s.io/client-go/util/jsonpath` that printer columns use
 * (`additionalPrinterColumns[].jsonPath`): `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[1:3]`, `[*]`,
 * `.*`, `..name` (recursive descent), unions `[0,2]` / `['a','b']`, and filters
 * `[?(@.type=="Ready")]` with `== != < > <= >=` or a bare `[?(@.x)]` existence test.
 * A `{...}` template wrapper is accepted. Missing keys yield no result (AllowMissingKeys).
 */
import { isJsonObject } from '@orchard/meta/internal';

type Step =
  | { kind: 'field'; names: string[] }
  | { kind: 'wildcard' }
  | { kind: 'recursive'; name: string | '*' }
  | { kind: 'index'; indexes: number[] }
  | { kind: 'slice'; start?: number; end?: number; step?: number }
  | { kind: 'filter'; path: Step[]; op?: string; value?: unknown };

/** A JSONPath expression of a printer column that cannot be parsed. */
export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathError';
  }
}

const identChar = /[A-Za-z0-9_\-$/]/;

class Parser {
  i = 0;
  constructor(readonly s: string) {}

  fail(msg: string): never {
    throw new JsonPathError(`invalid JSONPath ${JSON.stringify(this.s)} at ${this.i}: ${msg}`);
  }

  peek(): string | undefined {
    return this.s[this.i];
  }

  ident(): string {
    const start = this.i;
    while (this.i < this.s.length && identChar.test(this.s[this.i] as string)) this.i++;
    if (this.i === start) this.fail('expected a field name');
    return this.s.slice(start, this.i);
  }

  skipSpaces(): void {
    while (this.peek() === ' ') this.i++;
  }

  quoted(): string {
    const q = this.peek();
    if (q !== "'" && q !== '"') this.fail('expected a quoted string');
    this.i++;
    let out = '';
    while (this.i < this.s.length && this.s[this.i] !== q) {
      if (this.s[this.i] === '\\' && this.i + 1 < this.s.length) this.i++;
      out += this.s[this.i++];
    }
    if (this.peek() !== q) this.fail('unterminated string');
    this.i++;
    return out;
  }

  number(): number {
    const m = /^-?\d+/.exec(this.s.slice(this.i));
    if (!m) this.fail('expected an integer');
    this.i += m[0].length;
    return Number(m[0]);
  }

  /** Steps until `stop` (end of input, or `)` / an operator inside a filter). */
  steps(inFilter: boolean): Step[] {
    const steps: Step[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined) return steps;
      if (inFilter && (c === ')' || c === ' ' || c === '=' || c === '!' || c === '<' || c === '>'))
        return steps;
      if (c === '.') {
        this.i++;
        if (this.peek() === '.') {
          this.i++;
          if (this.peek() === '*') {
            this.i++;
            steps.push({ kind: 'recursive', name: '*' });
          } else steps.push({ kind: 'recursive', name: this.ident() });
        } else if (this.peek() === '*') {
          this.i++;
          steps.push({ kind: 'wildcard' });
        } else if (this.peek() === undefined || this.peek() === '[') {
          // `.` alone (or before a bracket) is the current node.
        } else steps.push({ kind: 'field', names: [this.ident()] });
      } else if (c === '[') {
        this.i++;
        steps.push(this.bracket());
      } else this.fail(`unexpected ${JSON.stringify(c)}`);
    }
  }

  bracket(): Step {
    this.skipSpaces();
    const c = this.peek();
    let step: Step;
    if (c === '*') {
      this.i++;
      step = { kind: 'wildcard' };
    } else if (c === "'" || c === '"') {
      const names = [this.quoted()];
      this.skipSpaces();
      while (this.peek() === ',') {
        this.i++;
        this.skipSpaces();
        names.push(this.quoted());
        this.skipSpaces();
      }
      step = { kind: 'field', names };
    } else if (c === '?') {
      this.i++;
      if (this.peek() !== '(') this.fail('expected ( after ?');
      this.i++;
      this.skipSpaces();
      if (this.peek() !== '@') this.fail('a filter starts with @');
      this.i++;
      const path = this.steps(true);
      this.skipSpaces();
      let op: string | undefined;
      let value: unknown;
      const m = /^(==|!=|<=|>=|<|>)/.exec(this.s.slice(this.i));
      if (m) {
        op = m[1];
        this.i += (m[1] as string).length;
        this.skipSpaces();
        const v = this.peek();
        if (v === "'" || v === '"') value = this.quoted();
        else {
          const lit = /^(-?\d+(\.\d+)?|true|false|null)/.exec(this.s.slice(this.i));
          if (!lit) this.fail('expected a literal');
          this.i += lit[0].length;
          value = JSON.parse(lit[0]);
        }
        this.skipSpaces();
      }
      if (this.peek() !== ')') this.fail('expected )');
      this.i++;
      step = { kind: 'filter', path, op, value };
    } else {
      const start = this.peek() === ':' ? undefined : this.number();
      this.skipSpaces();
      if (this.peek() === ':') {
        this.i++;
        const end = this.peek() === ']' || this.peek() === ':' ? undefined : this.number();
        let stepN: number | undefined;
        if (this.peek() === ':') {
          this.i++;
          stepN = this.peek() === ']' ? undefined : this.number();
        }
        step = { kind: 'slice', start, end, step: stepN };
      } else {
        const indexes = [start as number];
        while (this.peek() === ',') {
          this.i++;
          this.skipSpaces();
          indexes.push(this.number());
          this.skipSpaces();
        }
        step = { kind: 'index', indexes };
      }
    }
    this.skipSpaces();
    if (this.peek() !== ']') this.fail('expected ]');
    this.i++;
    return step;
  }
}

/** A parsed JSONPath, reusable across objects. */
export interface JsonPath {
  readonly source: string;
  /** Every value the path selects in `root` (empty when a key is missing). */
  evaluate(root: unknown): unknown[];
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isJsonObject(v))
    return Object.keys(v)
      .sort()
      .map((k) => v[k]);
  return [];
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    default: {
      if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
      const x = a as number | string;
      const y = b as number | string;
      return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
    }
  }
}

function apply(step: Step, nodes: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const n of nodes) {
    switch (step.kind) {
      case 'field':
        if (isJsonObject(n)) for (const name of step.names) if (Object.hasOwn(n, name)) out.push(n[name]);
        break;
      case 'wildcard':
        out.push(...children(n));
        break;
      case 'recursive': {
        const walk = (v: unknown): void => {
          if (step.name === '*') out.push(...children(v));
          else if (isJsonObject(v) && Object.hasOwn(v, step.name)) out.push(v[step.name]);
          for (const c of children(v)) walk(c);
        };
        walk(n);
        break;
      }
      case 'index':
        if (Array.isArray(n))
          for (const i of step.indexes) {
            const at = i < 0 ? n.length + i : i;
            if (at >= 0 && at < n.length) out.push(n[at]);
          }
        break;
      case 'slice':
        if (Array.isArray(n)) {
          const len = n.length;
          const norm = (x: number) => (x < 0 ? Math.max(len + x, 0) : Math.min(x, len));
          const from = step.start === undefined ? 0 : norm(step.start);
          const to = step.end === undefined ? len : norm(step.end);
          const by = step.step ?? 1;
          if (by > 0) for (let i = from; i < to; i += by) out.push(n[i]);
        }
        break;
      case 'filter':
        for (const item of children(n)) {
          const got = run(step.path, [item]);
          if (
            step.op === undefined
              ? got.length > 0
              : got.some((g) => compare(g, step.op as string, step.value))
          )
            out.push(item);
        }
        break;
    }
  }
  return out;
}

function run(steps: readonly Step[], nodes: unknown[]): unknown[] {
  let cur = nodes;
  for (const s of steps) {
    cur = apply(s, cur);
    if (cur.length === 0) break;
  }
  return cur;
}

/** Parses a JSONPath (`.spec.replicas`, `{.status.conditions[?(@.type=="Ready")].status}`). Throws `JsonPathError`. */
export function parseJsonPath(source: string): JsonPath {
  let s = source.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (s.startsWith('$')) s = s.slice(1);
  const p = new Parser(s);
  const steps = p.steps(false);
  return { source, evaluate: (root) => run(steps, [root]) };
}
