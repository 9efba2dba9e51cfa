/**
 * Patch `type-parameters` (checked programs): the engine leaves an unresolved type parameter
 * (`T` of `[]`, `V` of `{}`) in place, so any operator or selection on it fails
 * (`[].all(x, x > 0)` reports overlapping overloads); cel-go types it `dyn`. Also: the engine
 * declares `duration + timestamp` with result type duration (checked here as the commutative
 * `timestamp + duration`), and a `null` literal beside `optional<T>` values stays `null` (cel-go:
 * null is assignable to the optional). Relies on: `checker.check(ast, ctx)` is called for every
 * node and may set `ast.checkedType`; types have `kind`, `hasPlaceholderType`, `templated()`.
 */
import type { CheckedType, Checker } from './checker-hook.js';
import type { EngineNode } from './engine-ast.js';

const selections = new Set(['.', '.?', '[]', '[?]']);

const placeholdersAsDyn = new Map([
  ['A', 'dyn'],
  ['T', 'dyn'],
  ['K', 'dyn'],
  ['V', 'dyn'],
]);

/** `type` with every unresolved type parameter replaced by `dyn` (as cel-go reports it). */
export function paramsAsDyn(chk: Pick<Checker, 'registry'>, type: CheckedType): CheckedType {
  return type.hasPlaceholderType ? type.templated(chk.registry, placeholdersAsDyn) : type;
}

type Strict = (this: Checker, ast: EngineNode, ctx: unknown) => CheckedType;

/** The checked mode's `check`: the engine's, with the fixes above. */
export function checkWithTypeParameters(
  chk: Checker,
  strict: Strict,
  ast: EngineNode,
  ctx: unknown,
): CheckedType {
  if (ast.checkedType !== undefined) return ast.checkedType as CheckedType;
  if (ast.op === '+' && ast.meta.alternate === undefined) {
    const [l, r] = ast.args as [EngineNode, EngineNode];
    if (
      chk.check(l, ctx).name === 'google.protobuf.Duration' &&
      chk.check(r, ctx).name === 'google.protobuf.Timestamp'
    )
      ast.args = [r, l];
  }
  if ((ast.op === 'list' || ast.op === '?:') && ast.meta.alternate === undefined) {
    // `[optional.of(1), null]` is a list<optional<int>>
    const elems = ast.op === 'list' ? (ast.args as EngineNode[]) : (ast.args as EngineNode[]).slice(1);
    if (elems.length >= 2) {
      const types = elems.map((e) => chk.check(e, ctx));
      const others = types.filter((t) => t.name !== 'null');
      const t = others[0];
      if (t?.kind === 'optional' && others.length < types.length && others.every((x) => x === t))
        elems.forEach((e, i) => {
          if (e.op === 'value' && e.args === null && types[i]?.name === 'null')
            (e as { checkedType?: unknown }).checkedType = t;
        });
    }
  }
  if (selections.has(ast.op) && ast.meta.alternate === undefined) {
    // selecting from `{}`, `optional.none()`, …: the operand's parameters are dyn
    const operand = (ast.args as [EngineNode])[0];
    const ot = chk.check(operand, ctx);
    if (ot.hasPlaceholderType) (operand as { checkedType?: unknown }).checkedType = paramsAsDyn(chk, ot);
  }
  const t = strict.call(chk, ast, ctx);
  if (t.kind !== 'param') return t;
  const dyn = chk.getType('dyn');
  (ast as { checkedType?: unknown }).checkedType = dyn;
  return dyn;
}
