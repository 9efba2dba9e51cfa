import type { ApiObject } from '@orchard/meta';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { widgetSchema } from '../testing/fixtures.js';
import { resourceAtomOf } from '../typed/atom.js';
import { compare, isSame } from '../typed/compare.js';
import { apply } from './field-manager.js';

/**
 * Random Widget intents over a small vocabulary, so that managers overlap often. Maps and granular
 * lists are never empty: an applier dropping the last field under a struct it also applied empty leaves no struct
 * (upstream too: the emptied struct becomes null), so re-applying is not idempotent there.
 */
const word = fc.constantFrom('a', 'b', 'c');
const uniqueBy = <T>(arb: fc.Arbitrary<T>, key: (t: T) => string, max: number) =>
  fc.uniqueArray(arb, { selector: key, minLength: 1, maxLength: max });
const spec = fc.record(
  {
    color: word,
    size: word,
    replicas: fc.integer({ min: 0, max: 3 }),
    args: fc.array(word, { maxLength: 3 }),
    tags: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }),
    ports: uniqueBy(
      fc.record({ containerPort: fc.constantFrom(80, 443), name: word }),
      (p) => String(p.containerPort),
      2,
    ),
    containers: uniqueBy(
      fc.record(
        { name: word, image: word, env: uniqueBy(fc.record({ name: word, value: word }), (e) => e.name, 2) },
        { requiredKeys: ['name'] },
      ),
      (c) => c.name,
      2,
    ),
    settings: fc.dictionary(word, word, { minKeys: 1, maxKeys: 2 }),
    selector: fc.record({ matchLabels: fc.dictionary(word, word, { minKeys: 1, maxKeys: 2 }) }),
    config: fc.dictionary(word, fc.oneof(word, fc.dictionary(word, word, { minKeys: 1, maxKeys: 2 })), {
      minKeys: 1,
      maxKeys: 2,
    }),
  },
  { requiredKeys: ['color'] },
);
const intent = spec.map(
  (s) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: s }) as ApiObject,
);
const opts = { apiVersion: 'example.com/v1', kind: 'Widget', schema: widgetSchema };
const atom = resourceAtomOf(widgetSchema);

describe('apply properties on random intents', () => {
  it('compare(x, x) finds nothing', () => {
    fc.assert(
      fc.property(intent, (x) => isSame(compare(x, structuredClone(x), atom))),
      { numRuns: 200 },
    );
  });

  it('applying the same intent twice changes nothing the second time', () => {
    fc.assert(
      fc.property(intent, intent, (first, second) => {
        const a = apply(undefined, first, { ...opts, manager: 'A' });
        const b = apply(a.object, second, { ...opts, manager: 'A' });
        const c = apply(b.object, second, { ...opts, manager: 'A' });
        expect(c.changed).toBe(false);
        expect(c.object).toEqual(b.object);
      }),
      { numRuns: 200 },
    );
  });

  it('a second manager applying values equal to the live ones never conflicts, and shares them', () => {
    fc.assert(
      fc.property(intent, (x) => {
        const a = apply(undefined, x, { ...opts, manager: 'A' });
        const b = apply(a.object, x, { ...opts, manager: 'B' });
        const entries = b.managedFields.filter((e) => e.manager === 'A' || e.manager === 'B');
        expect(entries).toHaveLength(2);
        expect(entries[0]?.fieldsV1).toEqual(entries[1]?.fieldsV1);
        expect(b.object.spec).toEqual(a.object.spec);
      }),
      { numRuns: 200 },
    );
  });
});
