/**
 * The Kubernetes quantity library on @orchard/meta's `Quantity` (exact grammar, canonical form,
 * BigInt arithmetic): `quantity(string)`, `isQuantity(string)`, and on a quantity `isInteger`,
 * `asInteger`, `asApproximateFloat`, `sign`, `add`/`sub` (quantity or int), `isLessThan`,
 * `isGreaterThan`, `compareTo`; `==` compares by value (`quantity('1') == quantity('1000m')`).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Quantity, tryParseQuantity } from '@orchard/meta';
import { quantitySplitRegexp } from '@orchard/meta/internal';
import { evalError } from './values.js';

const TYPE = 'kubernetes.Quantity';
const SPLIT = new RegExp(quantitySplitRegexp);

/** Parses as the library does: the string must match the quantity grammar (so `Mi` alone is not a quantity). */
function parse(s: string): Quantity | undefined {
  return SPLIT.test(s) ? tryParseQuantity(s) : undefined;
}

function wrapQuantityError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw evalError((e as Error).message, 'invalid_argument');
  }
}

export function registerQuantity(env: Environment): void {
  env.registerType(TYPE, Quantity);
  env.registerFunction(`quantity(string): ${TYPE}`, (s: string) => {
    const q = parse(s);
    if (q === undefined)
      throw evalError(
        `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${s}`,
        'invalid_argument',
      );
    return q;
  });
  env.registerFunction('isQuantity(string): bool', (s: string) => parse(s) !== undefined);
  env.registerFunction(`${TYPE}.isInteger(): bool`, (q: Quantity) => q.isInteger());
  env.registerFunction(`${TYPE}.asInteger(): int`, (q: Quantity) => {
    const v = q.asInt64();
    if (v === undefined) throw evalError('cannot convert value to integer', 'invalid_argument');
    return v;
  });
  env.registerFunction(`${TYPE}.asApproximateFloat(): double`, (q: Quantity) => q.asApproximateFloat64());
  env.registerFunction(`${TYPE}.sign(): int`, (q: Quantity) => BigInt(q.sign()));
  env.registerFunction(`${TYPE}.add(${TYPE}): ${TYPE}`, (a: Quantity, b: Quantity) =>
    wrapQuantityError(() => a.add(b)),
  );
  env.registerFunction(`${TYPE}.add(int): ${TYPE}`, (a: Quantity, b: bigint) =>
    wrapQuantityError(() => a.add(Quantity.fromInt(b))),
  );
  env.registerFunction(`${TYPE}.sub(${TYPE}): ${TYPE}`, (a: Quantity, b: Quantity) =>
    wrapQuantityError(() => a.sub(b)),
  );
  env.registerFunction(`${TYPE}.sub(int): ${TYPE}`, (a: Quantity, b: bigint) =>
    wrapQuantityError(() => a.sub(Quantity.fromInt(b))),
  );
  env.registerFunction(`${TYPE}.isLessThan(${TYPE}): bool`, (a: Quantity, b: Quantity) => a.cmp(b) < 0);
  env.registerFunction(`${TYPE}.isGreaterThan(${TYPE}): bool`, (a: Quantity, b: Quantity) => a.cmp(b) > 0);
  env.registerFunction(`${TYPE}.compareTo(${TYPE}): int`, (a: Quantity, b: Quantity) => BigInt(a.cmp(b)));
  env.registerOperator(`${TYPE} == ${TYPE}`, (a: Quantity, b: Quantity) => a.cmp(b) === 0);
}
