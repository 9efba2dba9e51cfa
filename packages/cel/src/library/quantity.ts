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

const quantityType = 'kubernetes.Quantity';
const split = new RegExp(quantitySplitRegexp);

/** Parses as the library does: the string must match the quantity grammar (so `Mi` alone is not a quantity). */
function parse(s: string): Quantity | undefined {
  return split.test(s) ? tryParseQuantity(s) : undefined;
}

function wrapQuantityError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw evalError((e as Error).message, 'invalid_argument');
  }
}

export function registerQuantity(env: Environment): void {
  env.registerType(quantityType, Quantity);
  env.registerFunction(`quantity(string): ${quantityType}`, (s: string) => {
    const q = parse(s);
    if (q === undefined)
      throw evalError(
        `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${s}`,
        'invalid_argument',
      );
    return q;
  });
  env.registerFunction('isQuantity(string): bool', (s: string) => parse(s) !== undefined);
  env.registerFunction(`${quantityType}.isInteger(): bool`, (q: Quantity) => q.isInteger());
  env.registerFunction(`${quantityType}.asInteger(): int`, (q: Quantity) => {
    const v = q.asInt64();
    if (v === undefined) throw evalError('cannot convert value to integer', 'invalid_argument');
    return v;
  });
  env.registerFunction(`${quantityType}.asApproximateFloat(): double`, (q: Quantity) =>
    q.asApproximateFloat64(),
  );
  env.registerFunction(`${quantityType}.sign(): int`, (q: Quantity) => BigInt(q.sign()));
  env.registerFunction(`${quantityType}.add(${quantityType}): ${quantityType}`, (a: Quantity, b: Quantity) =>
    wrapQuantityError(() => a.add(b)),
  );
  env.registerFunction(`${quantityType}.add(int): ${quantityType}`, (a: Quantity, b: bigint) =>
    wrapQuantityError(() => a.add(Quantity.fromInt(b))),
  );
  env.registerFunction(`${quantityType}.sub(${quantityType}): ${quantityType}`, (a: Quantity, b: Quantity) =>
    wrapQuantityError(() => a.sub(b)),
  );
  env.registerFunction(`${quantityType}.sub(int): ${quantityType}`, (a: Quantity, b: bigint) =>
    wrapQuantityError(() => a.sub(Quantity.fromInt(b))),
  );
  env.registerFunction(
    `${quantityType}.isLessThan(${quantityType}): bool`,
    (a: Quantity, b: Quantity) => a.cmp(b) < 0,
  );
  env.registerFunction(
    `${quantityType}.isGreaterThan(${quantityType}): bool`,
    (a: Quantity, b: Quantity) => a.cmp(b) > 0,
  );
  env.registerFunction(`${quantityType}.compareTo(${quantityType}): int`, (a: Quantity, b: Quantity) =>
    BigInt(a.cmp(b)),
  );
  env.registerOperator(`${quantityType} == ${quantityType}`, (a: Quantity, b: Quantity) => a.cmp(b) === 0);
}
