/**
 * The static worst-case cost estimate (doc 2 §2.10 item 6). Sizes come from the schemas of the
 * declared variables: `maxLength`, `maxItems`, `maxProperties`; where a schema declares no maximum,
 * the size is bounded by what fits in the largest request (`MaxRequestSizeBytes`), as upstream.
 * A comprehension costs its body times the worst-case size of its range, so nested loops over
 * unbounded lists exceed `StaticEstimatedCostLimit`.
 *
 * The walk also rejects a field selection that the schema of an object does not declare (the
 * engine types objects as `map<string, dyn>`, so this is where `self.nosuchfield` is caught).
 */
import { propertySchema, type StructuralSchema } from '@orchard/schema';
import { CelError, positionOf } from './errors.js';
import { unescapePropertyName } from './escaping.js';
import {
  ListCreateBaseCost,
  MaxRequestSizeBytes,
  RegexStringLengthCostFactor,
  StringTraversalCostFactor,
} from './limits.js';
import type { EngineNode } from './patches/engine-ast.js';

/**
 * The static cost range of an expression in cost units: `min` for the cheapest path through it, `max` for the
 * worst case over the sizes its variables' schemas allow (what the estimated cost limits compare against).
 */
export interface CostEstimate {
  min: number;
  max: number;
}

interface Info {
  cost: number;
  /** Worst-case size (characters, bytes, elements or entries) of the value. */
  size: number;
  schema?: StructuralSchema | undefined;
}

const unbounded = MaxRequestSizeBytes;

/** The smallest serialized size of a value of `s` (for bounding unbounded collections). */
function minSerializedSize(s: StructuralSchema | undefined): number {
  if (s === undefined) return 1;
  switch (s.type) {
    case 'string':
      return 2;
    case 'boolean':
      return 4;
    case 'integer':
    case 'number':
      return 1;
    default:
      return 2;
  }
}

/** The worst-case size of a value of `s`. */
export function maxSizeOf(s: StructuralSchema | undefined): number {
  if (s === undefined) return unbounded;
  switch (s.type) {
    case 'string':
      return s.maxLength ?? unbounded;
    case 'array':
      // each element needs at least its own size plus a separator
      return s.maxItems ?? Math.floor(unbounded / (minSerializedSize(s.items) + 1));
    case 'object':
      if (s.maxProperties !== undefined) return s.maxProperties;
      if (s.properties && s.additionalProperties === undefined) return Object.keys(s.properties).length;
      // a key `"":` plus a value plus a separator
      return Math.floor(
        unbounded /
          (4 +
            minSerializedSize(
              typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined,
            )),
      );
    default:
      return 1;
  }
}

const strCost = (n: number) => Math.ceil(n * StringTraversalCostFactor);

/**
 * Declared properties looked up by CEL field name, per object schema (`null`: not declared). One
 * per environment: its schemas do not change, and the same fields are selected rule after rule.
 */
export type FieldCache = Map<StructuralSchema, Map<string, StructuralSchema | null>>;

interface Scope {
  vars: ReadonlyMap<string, { schema?: StructuralSchema }>;
  locals: Map<string, Info>;
  source: string;
  fields: FieldCache;
}

/** The property schema `s` declares for the CEL field name `name` (escaped), or null. */
function declaredField(s: StructuralSchema, name: string, fields: FieldCache): StructuralSchema | null {
  let byName = fields.get(s);
  if (byName === undefined) {
    byName = new Map();
    fields.set(s, byName);
  }
  let ps = byName.get(name);
  if (ps === undefined) {
    const prop = unescapePropertyName(name);
    ps = (prop === undefined ? undefined : propertySchema(s, prop)) ?? null;
    byName.set(name, ps);
  }
  return ps;
}

function child(node: EngineNode, key: string): EngineNode | undefined {
  return (node.args as Record<string, EngineNode>)[key];
}

function fieldOf(
  parent: Info,
  name: string,
  node: EngineNode,
  scope: Scope,
  optional: boolean,
): StructuralSchema | undefined {
  const s = parent.schema;
  if (s === undefined) return undefined;
  if (s.properties) {
    const ps = declaredField(s, name, scope.fields);
    if (ps !== null) return ps;
    if (typeof s.additionalProperties === 'object') return s.additionalProperties;
    if (
      !s.preserveUnknownFields &&
      !s.additionalProperties &&
      !optional &&
      (s.type === 'object' || s.type === undefined)
    ) {
      throw new CelError('type-check', `undefined field '${name}'`, {
        position: positionOf(scope.source, node.start, node.end),
      });
    }
    return undefined;
  }
  if (typeof s.additionalProperties === 'object') return s.additionalProperties;
  return undefined;
}

function infoOfSchema(schema: StructuralSchema | undefined, cost: number): Info {
  return { cost, size: maxSizeOf(schema), schema };
}

function est(node: EngineNode | undefined, scope: Scope): Info {
  if (node === undefined) return { cost: 0, size: 1 };
  const meta = node.meta;
  if (meta?.alternate) return est(meta.alternate, scope);
  if (meta?.macro) {
    const m = meta.macro as Record<string, unknown>;
    if ('exp' in m && 'val' in m) {
      const val = est(m.val as EngineNode, scope);
      const locals = new Map(scope.locals);
      locals.set(m.var as string, val);
      const exp = est(m.exp as EngineNode, { ...scope, locals });
      return { cost: val.cost + exp.cost, size: exp.size, schema: exp.schema };
    }
    const args = (m.args as EngineNode[] | undefined) ?? [];
    let cost = 1;
    for (const a of args) cost += est(a, scope).cost;
    return { cost, size: 1 };
  }
  const args = node.args as unknown;
  switch (node.op) {
    case 'value': {
      const v = args;
      const size = typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.length : 1;
      return { cost: 0, size };
    }
    case 'id': {
      const name = args as string;
      const local = scope.locals.get(name);
      if (local !== undefined) return { ...local, cost: 1 };
      const v = scope.vars.get(name);
      return infoOfSchema(v?.schema, 1);
    }
    case 'accuValue':
    case 'accuInc':
      return { cost: 1, size: unbounded };
    case 'accuPush': {
      const a = est(args as EngineNode, scope);
      return { cost: a.cost + 1, size: unbounded };
    }
    case '.':
    case '.?': {
      const [l, name] = args as [EngineNode, string];
      const left = est(l, scope);
      const fs = fieldOf(left, name, node, scope, node.op === '.?');
      return infoOfSchema(fs, left.cost + 1);
    }
    case '[]':
    case '[?]': {
      const [l, r] = args as [EngineNode, EngineNode];
      const left = est(l, scope);
      const right = est(r, scope);
      const s = left.schema;
      const es =
        s?.type === 'array'
          ? s.items
          : typeof s?.additionalProperties === 'object'
            ? s.additionalProperties
            : undefined;
      return infoOfSchema(es, left.cost + right.cost + 1);
    }
    case 'list': {
      const items = args as EngineNode[];
      let cost = ListCreateBaseCost;
      for (const a of items) cost += est(a, scope).cost;
      return { cost, size: items.length };
    }
    case 'map': {
      const entries = args as [EngineNode, EngineNode][];
      let cost = 30;
      for (const [k, v] of entries) cost += est(k, scope).cost + est(v, scope).cost;
      return { cost, size: entries.length };
    }
    case 'comprehension': {
      const range = est(child(node, 'iterable'), scope);
      const init = est(child(node, 'init'), scope);
      const itemSchema = range.schema?.type === 'array' ? range.schema.items : undefined;
      const elem: Info =
        range.schema?.type === 'object' ? { cost: 1, size: unbounded } : infoOfSchema(itemSchema, 1);
      if (range.schema === undefined) elem.size = unbounded;
      const locals = new Map(scope.locals);
      locals.set((node.args as { iterVarName: string }).iterVarName, elem);
      const step = est(child(node, 'step'), { ...scope, locals });
      // + 1 for reading the result (cel-go charges the result expression, an accumulator ident)
      const cost = range.cost + init.cost + range.size * (step.cost + 1) + 1;
      return { cost, size: range.size };
    }
    case '?:': {
      const [c, l, r] = args as EngineNode[];
      const a = est(l, scope);
      const b = est(r, scope);
      const bigger = a.cost >= b.cost ? a : b;
      return {
        cost: est(c, scope).cost + bigger.cost,
        size: Math.max(a.size, b.size),
        schema: a.schema ?? b.schema,
      };
    }
    case '&&':
    case '||': {
      const [l, r] = args as EngineNode[];
      return { cost: est(l, scope).cost + est(r, scope).cost, size: 1 };
    }
    case '!_':
    case '-_': {
      const a = est(args as EngineNode, scope);
      return { cost: a.cost + 1, size: 1 };
    }
    case '+': {
      const [l, r] = args as EngineNode[];
      const a = est(l, scope);
      const b = est(r, scope);
      const size = Math.min(a.size + b.size, unbounded * 2);
      return { cost: a.cost + b.cost + 1 + strCost(size), size, schema: a.schema ?? b.schema };
    }
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
    case 'in': {
      const [l, r] = args as EngineNode[];
      const a = est(l, scope);
      const b = est(r, scope);
      // As cel-go: `in` walks the list; a comparison walks the shorter operand (scalars: 1).
      const traversal = node.op === 'in' ? b.size : strCost(Math.min(a.size, b.size));
      return { cost: a.cost + b.cost + traversal, size: 1 };
    }
    case 'call':
    case 'rcall': {
      const name = (args as [string])[0];
      const receiver = node.op === 'rcall' ? est((args as [string, EngineNode])[1], scope) : undefined;
      const list =
        (node.op === 'rcall'
          ? (args as [string, EngineNode, EngineNode[]])[2]
          : (args as [string, EngineNode[]])[1]) ?? [];
      const infos = list.map((a) => est(a, scope));
      let cost = receiver?.cost ?? 0;
      for (const i of infos) cost += i.cost;
      const subject = receiver ?? infos[0];
      const rest = receiver ? infos : infos.slice(1);
      cost += functionCost(name, subject, rest);
      return { cost, size: resultSize(name, subject) };
    }
    default: {
      let cost = 1;
      for (const v of Array.isArray(args) ? args : [])
        if (v && typeof v === 'object' && 'op' in v) cost += est(v as EngineNode, scope).cost;
      return { cost, size: 1 };
    }
  }
}

/** Cost of `authorizer.check()` (upstream: fixed, so that two checks fit in one expression). */
const AuthorizerCheckCost = 350_000;

/** The worst-case size of one element of the list `list` (1 for non-string elements). */
function elementSize(list: Info | undefined): number {
  const items = list?.schema?.type === 'array' ? list.schema.items : undefined;
  return items === undefined ? unbounded : maxSizeOf(items);
}

/**
 * The cost of the function itself, without its receiver and arguments, as cel-go's checker and
 * upstream's library cost estimator charge it (`StringTraversalCostFactor` per character walked,
 * regexes by input times pattern length); any other function costs 1.
 */
function functionCost(name: string, subject: Info | undefined, rest: Info[]): number {
  const n = subject?.size ?? 1;
  const arg = rest[0]?.size ?? 1;
  const isList = subject?.schema?.type === 'array';
  switch (name) {
    // a prefix or suffix test walks the argument, not the searched string
    case 'startsWith':
    case 'endsWith':
      return strCost(arg);
    case 'contains':
      return strCost(n) * strCost(arg);
    case 'matches':
    case 'find':
    case 'findAll':
      return strCost(n + 1) * Math.ceil(arg * RegexStringLengthCostFactor);
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
    case 'url':
    case 'bytes':
      return strCost(n);
    case 'replace':
    case 'split':
      // the walk plus building the result
      return Math.ceil(n * 2 * StringTraversalCostFactor);
    case 'join': {
      const separators = rest[0] === undefined ? 0 : arg * Math.max(0, n - 1);
      return strCost(n * elementSize(subject) + separators);
    }
    case 'indexOf':
    case 'lastIndexOf':
    case 'min':
    case 'max':
    case 'sum':
    case 'isSorted':
      if (!isList) return strCost(n);
      // one comparison per element, plus walking string elements
      return n * (1 + (subject?.schema?.items?.type === 'string' ? strCost(elementSize(subject)) : 0));
    case 'sort':
      return n * Math.max(1, Math.ceil(Math.log2(n + 1)));
    case 'reverse':
    case 'distinct':
    case 'flatten':
      return n;
    case 'check':
      return AuthorizerCheckCost;
    default:
      return 1;
  }
}

function resultSize(name: string, subject: Info | undefined): number {
  switch (name) {
    case 'size':
    case 'matches':
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return 1;
    default:
      return subject?.size ?? 1;
  }
}

/** The worst-case cost of `root` given the variables' schemas. Throws `type-check` for undefined fields. */
export function estimateCost(
  root: EngineNode,
  vars: ReadonlyMap<string, { schema?: StructuralSchema }>,
  fields: FieldCache = new Map(),
): CostEstimate {
  const info = est(root, {
    vars,
    locals: new Map(),
    source: (root as unknown as { input: string }).input ?? '',
    fields,
  });
  return { min: 0, max: Math.ceil(info.cost) };
}
