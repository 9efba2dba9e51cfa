import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { isCelError } from '../errors.js';
import { thrownBy } from '../test-helpers.js';

const env = createEnv();
const run = (expr: string) => compile(expr, env).evaluate();

// Examples of the upstream quantity library documentation.
describe('quantity library', () => {
  it.each([
    ["quantity('50k') == quantity('50000')", true],
    ["quantity('1') == quantity('1000m')", true],
    ["isQuantity('1.3G')", true],
    ["isQuantity('1.3Gi')", true],
    ["isQuantity('1,3Gi')", false],
    ["isQuantity('10000k')", true],
    ["isQuantity('200K')", false],
    ["isQuantity('Three')", false],
    ["isQuantity('Mi')", false],
    ["quantity('50000000G').isInteger()", true],
    ["quantity('50k').isInteger()", true],
    ["quantity('9999999999999999999999999999999999999G').isInteger()", false],
    ["quantity('50k').asInteger()", 50000n],
    ["quantity('50k').sign()", 1n],
    ["quantity('-50k').sign()", -1n],
    ["quantity('0').sign()", 0n],
    ["quantity('50.703k').asApproximateFloat()", 50703],
    ["quantity('50k').add(quantity('20k')) == quantity('70k')", true],
    ["quantity('50k').add(20) == quantity('50020')", true],
    ["quantity('50k').sub(quantity('20k')) == quantity('30k')", true],
    ["quantity('50k').sub(20000) == quantity('30k')", true],
    ["quantity('50k').add(20).sub(quantity('100k')).sub(-50000) == quantity('20')", true],
    ["quantity('200M').isLessThan(quantity('1G'))", true],
    ["quantity('2M').isLessThan(quantity('1M'))", false],
    ["quantity('1.5Gi').isGreaterThan(quantity('1Gi'))", true],
    ["quantity('200M').compareTo(quantity('0.2G'))", 0n],
    ["quantity('50M').compareTo(quantity('50Mi'))", -1n],
    ["quantity('50Mi').compareTo(quantity('50M'))", 1n],
  ])('%s → %s', (expr, want) => {
    expect(run(expr)).toEqual(want);
  });

  it.each([
    ["quantity('1x')", /quantities must match/],
    ["quantity('9999999999999999999999999999999999999G').asInteger()", /cannot convert value to integer/],
    ["quantity('1.5').asInteger()", /cannot convert value to integer/],
  ])('%s fails', (expr, msg) => {
    const err = thrownBy(() => run(expr));
    expect(isCelError(err) && err.code).toBe('evaluation');
    expect((err as Error).message).toMatch(msg);
  });
});
