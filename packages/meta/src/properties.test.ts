/**
 * Properties over generated inputs: canonical forms are fixed points that keep the value, and
 * arithmetic is exact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeFieldValue, parseFieldSelector, unescapeFieldValue } from './field-selector.js';
import { formatLabelSelector, parseLabelSelector } from './label-selector.js';
import { parseQuantity, Quantity } from './quantity.js';

const suffix = fc.constantFrom(
  '',
  'n',
  'u',
  'm',
  'k',
  'M',
  'G',
  'T',
  'P',
  'E',
  'Ki',
  'Mi',
  'Gi',
  'Ti',
  'Pi',
  'Ei',
  'e3',
  'e-3',
  'E6',
  'e0',
);
const quantityString = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    fc.stringMatching(/^[0-9]{1,12}$/),
    fc.option(fc.stringMatching(/^[0-9]{0,8}$/), { nil: undefined }),
    suffix,
  )
  .map(([sign, int, frac, sfx]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}${sfx}`);

describe('Quantity properties', () => {
  it('the string form parses to the same value and is a fixed point', () => {
    fc.assert(
      fc.property(quantityString, (s) => {
        const q = parseQuantity(s);
        const out = q.toString();
        const again = parseQuantity(out);
        expect(again.cmp(q)).toBe(0);
        expect(again.toString()).toBe(parseQuantity(again.toString()).toString());
      }),
      { numRuns: 2000 },
    );
  });
  it('parsing never produces more than nano precision', () => {
    fc.assert(
      fc.property(quantityString, (s) => {
        const q = parseQuantity(s);
        expect(q.roundUp(-9).exact).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
  it('add/sub are exact against BigInt arithmetic on milli-units', () => {
    const milli = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
    fc.assert(
      fc.property(milli, milli, (a, b) => {
        const qa = Quantity.fromScaled(a, -3);
        const qb = Quantity.fromScaled(b, -3);
        expect(qa.add(qb).cmp(Quantity.fromScaled(a + b, -3))).toBe(0);
        expect(qa.sub(qb).cmp(Quantity.fromScaled(a - b, -3))).toBe(0);
        expect(qa.cmp(qb)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
      { numRuns: 1000 },
    );
  });
});

const key = fc.stringMatching(/^[a-z0-9]([a-z0-9._-]{0,10}[a-z0-9])?$/);
const value = fc.stringMatching(/^([A-Za-z0-9]([A-Za-z0-9._-]{0,10}[A-Za-z0-9])?)?$/);
const nonEmptyValue = value.filter((v) => v !== '');
// Set values are non-empty: upstream's parser rejects `(,,)` and `(a,,)` (a trailing `,,` before `)`).
const requirement = fc.oneof(
  fc.tuple(key, fc.constantFrom('=', '==', '!='), value).map(([k, op, v]) => `${k}${op}${v}`),
  fc
    .tuple(key, fc.constantFrom(' in ', ' notin '), fc.array(nonEmptyValue, { minLength: 1, maxLength: 4 }))
    .map(([k, op, vs]) => `${k}${op}(${vs.join(',')})`),
  key,
  key.map((k) => `!${k}`),
);

describe('selector properties', () => {
  it('formatLabelSelector output re-parses to the same selector and the same matches', () => {
    const labels = fc.dictionary(key, value, { maxKeys: 5 });
    fc.assert(
      fc.property(fc.array(requirement, { minLength: 0, maxLength: 5 }), labels, (reqs, ls) => {
        const sel = parseLabelSelector(reqs.join(','));
        const again = parseLabelSelector(formatLabelSelector(sel));
        expect(formatLabelSelector(again)).toBe(formatLabelSelector(sel));
        expect(again.matches(ls)).toBe(sel.matches(ls));
      }),
      { numRuns: 1000 },
    );
  });
  it('field values survive escaping inside a selector', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (v) => {
        expect(unescapeFieldValue(escapeFieldValue(v))).toBe(v);
        const sel = parseFieldSelector(`f=${escapeFieldValue(v)}`);
        expect(sel.requiresExactMatch('f')).toBe(v);
        expect(sel.matches({ f: v })).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
