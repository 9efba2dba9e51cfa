import type { ApiObject } from '@orchard/meta';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldSet } from '../fieldpath/field-set.js';
import { makePath } from '../fieldpath/path-element.js';
import { widgetSchema } from '../testing/fixtures.js';
import { type FieldManagerWriteOptions, update } from './field-manager.js';

/**
 * `update` has a fast path for a create (no live object, no managedFields to keep): it must give
 * what the general path gives for the same write. The general path runs for a live object `{}`,
 * which the general path treats exactly as an absent one (both compare the new object with `{}`).
 * Lists may repeat keys or lack them, values may be null or empty: the errors must match too.
 */
const word = fc.constantFrom('a', 'b', 'c');
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.constant(null), fc.constant({}));
const spec = fc.record(
  {
    color: fc.oneof(word, fc.constant(null)),
    replicas: fc.integer({ min: 0, max: 3 }),
    args: fc.array(word, { maxLength: 3 }),
    tags: fc.array(word, { maxLength: 3 }),
    ports: fc.array(
      fc.record({ containerPort: fc.constantFrom(80, 443), name: word }, { requiredKeys: [] }),
      {
        maxLength: 3,
      },
    ),
    containers: fc.array(
      fc.record(
        { name: word, image: word, env: fc.array(fc.record({ name: word, value: word }), { maxLength: 2 }) },
        {
          requiredKeys: [],
        },
      ),
      { maxLength: 3 },
    ),
    settings: maybe(fc.dictionary(word, word, { maxKeys: 2 })),
    selector: fc.record({ matchLabels: maybe(fc.dictionary(word, word, { maxKeys: 2 })) }),
    config: fc.dictionary(word, fc.oneof(word, fc.dictionary(word, word, { maxKeys: 2 })), { maxKeys: 2 }),
  },
  { requiredKeys: [] },
);
const managedFields = fc.constantFrom<unknown>(
  undefined,
  [],
  [{}],
  [{ manager: '', operation: '', apiVersion: '', fieldsType: '' }],
  [{ manager: 'x', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }],
  'not a list',
);
const object = fc
  .record(
    {
      spec,
      status: fc.record({ phase: word }),
      labels: fc.dictionary(word, word, { maxKeys: 2 }),
      managedFields,
      extra: fc.option(fc.dictionary(word, word, { maxKeys: 2 }), { nil: undefined }),
    },
    { requiredKeys: ['managedFields'] },
  )
  .map(({ spec, status, labels, managedFields, extra }) => {
    const metadata: Record<string, unknown> = { name: 'w', namespace: 'ns', uid: 'u', resourceVersion: '' };
    if (labels !== undefined) metadata.labels = labels;
    if (managedFields !== undefined) metadata.managedFields = managedFields;
    const o: Record<string, unknown> = { apiVersion: 'example.com/v1', kind: 'Widget', metadata };
    if (spec !== undefined) o.spec = spec;
    if (status !== undefined) o.status = status;
    if (extra !== undefined) o.extra = extra;
    return o as ApiObject;
  });
const ignored = fc.constantFrom(undefined, FieldSet.of(makePath('status')), FieldSet.of(makePath('spec')));
const schema = fc.constantFrom(widgetSchema, undefined);

function outcome(live: ApiObject | undefined, next: ApiObject, opts: FieldManagerWriteOptions) {
  try {
    return { ok: update(live, next, opts) };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

describe('the create fast path of update', () => {
  it('gives what the general path gives, errors included', () => {
    fc.assert(
      fc.property(object, ignored, schema, (next, ignoredFields, s) => {
        const opts: FieldManagerWriteOptions = {
          manager: 'creator',
          apiVersion: 'example.com/v1',
          now: '2026-01-02T03:04:05Z',
          ...(ignoredFields ? { ignoredFields } : {}),
          ...(s ? { schema: s } : {}),
        };
        const fast = outcome(undefined, next, opts);
        expect(fast).toEqual(outcome({} as ApiObject, next, opts));
        expect(JSON.stringify(fast)).toBe(JSON.stringify(outcome({} as ApiObject, next, opts)));
      }),
      { numRuns: 400 },
    );
  });

  it('rejects repeated list-map keys as the general path does', () => {
    const next = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { color: 'a', containers: [{ name: 'a' }, { name: 'a', image: 'x' }], ports: [{ name: 'p' }] },
    } as ApiObject;
    const opts = {
      manager: 'm',
      apiVersion: 'example.com/v1',
      schema: widgetSchema,
      now: '2026-01-02T03:04:05Z',
    };
    const fast = outcome(undefined, next, opts);
    expect(fast).toEqual(outcome({} as ApiObject, next, opts));
    expect(fast.error).toMatch(/FieldManagerError/);
  });
});
