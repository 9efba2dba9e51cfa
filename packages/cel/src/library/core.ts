/**
 * Completions of the CEL standard library that the engine lacks (found by the cel-spec
 * conformance suite; each is an upstream-fix candidate listed in the README): two-variable
 * comprehensions (`all`, `exists`, `existsOne`, `transformList`, `transformMap`,
 * `transformMapEntry`), `optMap`/`optFlatMap`, optional equality, bytes ordering,
 * heterogeneous numeric equality, and the missing conversions.
 */
import { type Environment, Optional } from '@marcbachmann/cel-js';
import type { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celEquals } from '../list-semantics.js';
import { formatTimestamp } from '../timestamps.js';
import { compareValues, evalError } from './values.js';

// The engine's macro hooks receive its checker, evaluator and scope objects.
type Any = any;

function identName(node: Any, what: string): string {
  if (node?.op !== 'id')
    throw evalError(`${what}: iteration variable must be an identifier`, 'invalid_macro_argument');
  return node.args as string;
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

function entries(coll: unknown): [unknown, unknown][] {
  if (Array.isArray(coll)) return coll.map((v, i) => [BigInt(i), v]);
  if (coll instanceof Map) return [...coll.entries()];
  if (typeof coll === 'object' && coll !== null) return Object.entries(coll);
  throw evalError('comprehension range must be a list or a map', 'invalid_comprehension_range');
}

function twoVarMacro(kind: Kind, withFilter: boolean) {
  return ({ args, receiver }: Any) => {
    const first = identName(args[0], kind);
    const second = identName(args[1], kind);
    if (first === second)
      throw evalError(`${kind}: duplicate variable name '${first}'`, 'invalid_macro_argument');
    return {
      receiver,
      first,
      second,
      filter: withFilter ? args[2] : undefined,
      expr: withFilter ? args[3] : args[2],
      typeCheck(chk: Any, m: Any, ctx: Any) {
        const rt = chk.check(m.receiver, ctx);
        const dyn = chk.getType('dyn');
        let t1 = dyn;
        let t2 = dyn;
        if (rt.kind === 'list') {
          t1 = chk.getType('int');
          t2 = rt.valueType;
        } else if (rt.kind === 'map') {
          t1 = rt.keyType;
          t2 = rt.valueType;
        } else if (rt.kind !== 'dyn') {
          throw chk.createError(
            'invalid_comprehension_range',
            `${kind}: range must be a list or a map`,
            m.receiver,
          );
        }
        m.ctx1 = ctx.forkWithVariable(m.first, t1);
        m.ctx2 = m.ctx1.forkWithVariable(m.second, t2);
        if (m.filter) chk.check(m.filter, m.ctx2);
        const et = chk.check(m.expr, m.ctx2);
        switch (kind) {
          case 'all':
          case 'exists':
          case 'existsOne':
            return chk.getType('bool');
          case 'transformList':
            return chk.registry.getListType(et);
          case 'transformMap':
            return chk.registry.getMapType(
              rt.kind === 'map' ? rt.keyType : rt.kind === 'list' ? chk.getType('int') : dyn,
              et,
            );
          default:
            return chk.getType('map');
        }
      },
      evaluate(ev: Any, m: Any, ctx: Any) {
        const coll = ev.run(m.receiver, ctx);
        const items = entries(coll);
        const scope = (a: unknown, b: unknown) =>
          m.ctx2.reuse(m.ctx1.reuse(ctx).setIterValue(a, ev)).setIterValue(b, ev);
        let error: unknown;
        let count = 0;
        const outList: unknown[] = [];
        const outMap = new Map<unknown, unknown>();
        for (const [a, b] of items) {
          const c = scope(a, b);
          if (m.filter) {
            const keep = ev.run(m.filter, c);
            if (keep !== true) continue;
          }
          if (kind === 'all' || kind === 'exists') {
            const r = ev.tryEval(m.expr, c);
            if (r instanceof Error) error ??= r;
            else if (kind === 'all' && r === false) return false;
            else if (kind === 'exists' && r === true) return true;
            continue;
          }
          const r = ev.run(m.expr, c);
          if (kind === 'existsOne') {
            if (r === true) count++;
          } else if (kind === 'transformList') outList.push(r);
          else if (kind === 'transformMap') outMap.set(a, r);
          else
            for (const [k, v] of entries(r)) {
              if (outMap.has(k))
                throw evalError(`transformMapEntry: duplicate key '${String(k)}'`, 'duplicate_key');
              outMap.set(k, v);
            }
        }
        if (error !== undefined) throw error;
        switch (kind) {
          case 'all':
            return true;
          case 'exists':
            return false;
          case 'existsOne':
            return count === 1;
          case 'transformList':
            return outList;
          default:
            return [...outMap.keys()].every((k) => typeof k === 'string')
              ? Object.fromEntries(outMap)
              : outMap;
        }
      },
    };
  };
}

function optMacro(flat: boolean) {
  return ({ args, receiver }: Any) => ({
    receiver,
    name: identName(args[0], flat ? 'optFlatMap' : 'optMap'),
    expr: args[1],
    typeCheck(chk: Any, m: Any, ctx: Any) {
      const rt = chk.check(m.receiver, ctx);
      const inner = rt.kind === 'optional' ? rt.valueType : chk.getType('dyn');
      m.ctx1 = ctx.forkWithVariable(m.name, inner);
      const et = chk.check(m.expr, m.ctx1);
      if (flat) return et.kind === 'optional' ? et : chk.registry.getOptionalType(chk.getType('dyn'));
      return chk.registry.getOptionalType(et);
    },
    evaluate(ev: Any, m: Any, ctx: Any) {
      const o = ev.run(m.receiver, ctx);
      if (!(o instanceof Optional))
        throw evalError('optMap: receiver is not an optional', 'no_matching_overload');
      if (!o.hasValue()) return Optional.none();
      const r = ev.run(m.expr, m.ctx1.reuse(ctx).setIterValue(o.value(), ev));
      if (!flat) return Optional.of(r);
      if (!(r instanceof Optional))
        throw evalError('optFlatMap: expression must return an optional', 'no_matching_overload');
      return r;
    },
  });
}

const int64Max = 2n ** 63n - 1n;

export function registerCore(env: Environment): void {
  for (const recv of ['list', 'map']) {
    for (const [name, kind] of [
      ['all', 'all'],
      ['exists', 'exists'],
      ['existsOne', 'existsOne'],
      ['exists_one', 'existsOne'],
    ] as const) {
      env.registerFunction(`${recv}.${name}(ast, ast, ast): bool`, twoVarMacro(kind, false));
    }
    env.registerFunction(
      `${recv}.transformList(ast, ast, ast): list<dyn>`,
      twoVarMacro('transformList', false),
    );
    env.registerFunction(
      `${recv}.transformList(ast, ast, ast, ast): list<dyn>`,
      twoVarMacro('transformList', true),
    );
    env.registerFunction(
      `${recv}.transformMap(ast, ast, ast): map<dyn, dyn>`,
      twoVarMacro('transformMap', false),
    );
    env.registerFunction(
      `${recv}.transformMap(ast, ast, ast, ast): map<dyn, dyn>`,
      twoVarMacro('transformMap', true),
    );
    env.registerFunction(
      `${recv}.transformMapEntry(ast, ast, ast): map<dyn, dyn>`,
      twoVarMacro('transformMapEntry', false),
    );
    env.registerFunction(
      `${recv}.transformMapEntry(ast, ast, ast, ast): map<dyn, dyn>`,
      twoVarMacro('transformMapEntry', true),
    );
  }
  env.registerFunction('optional.optMap(ast, ast): optional<dyn>', optMacro(false));
  env.registerFunction('optional.optFlatMap(ast, ast): optional<dyn>', optMacro(true));

  env.registerOperator('optional == optional', (a: unknown, b: unknown) => celEquals(a, b));
  env.registerOperator('bytes < bytes', (a: Uint8Array, b: Uint8Array) => compareValues(a, b) < 0);
  env.registerOperator('bytes <= bytes', (a: Uint8Array, b: Uint8Array) => compareValues(a, b) <= 0);
  env.registerOperator('bytes > bytes', (a: Uint8Array, b: Uint8Array) => compareValues(a, b) > 0);
  env.registerOperator('bytes >= bytes', (a: Uint8Array, b: Uint8Array) => compareValues(a, b) >= 0);

  // `type(optional.of(x)) == optional_type`
  const TypeValue = (env.evaluate('type(1)') as object).constructor as new (name: string) => object;
  const optionalType = new TypeValue('optional_type');
  env.registerFunction('type(optional<A>): type', () => optionalType);
  env.registerConstant('optional_type', 'type', optionalType);

  env.registerFunction('int(uint): int', (u: UnsignedInt) => {
    if (u.value > int64Max) throw evalError('integer overflow', 'numeric_overflow');
    return u.value;
  });
  env.registerFunction('int(google.protobuf.Timestamp): int', (t: Date) =>
    BigInt(Math.floor(t.getTime() / 1000)),
  );
  env.registerFunction('string(google.protobuf.Timestamp): string', (t: Date) => formatTimestamp(t));
  env.registerFunction('string(google.protobuf.Duration): string', (d: Duration) => formatDurationSeconds(d));
  env.registerFunction('duration(google.protobuf.Duration): google.protobuf.Duration', (d: Duration) => d);
  env.registerFunction('timestamp(google.protobuf.Timestamp): google.protobuf.Timestamp', (t: Date) => t);
}

/** cel-go's string form of a duration: seconds with up to 9 fractional digits, then `s`. */
function formatDurationSeconds(d: Duration): string {
  const total = d.seconds * 1_000_000_000n + BigInt(d.nanos);
  const neg = total < 0n;
  const abs = neg ? -total : total;
  const secs = abs / 1_000_000_000n;
  const frac = abs % 1_000_000_000n;
  const fs = frac === 0n ? '' : `.${frac.toString().padStart(9, '0').replace(/0+$/, '')}`;
  return `${neg ? '-' : ''}${secs}${fs}s`;
}
