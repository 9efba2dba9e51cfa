import { describe, expect, it } from 'vitest';
import { applyDefaults } from './defaults.js';
import { prune } from './prune.js';
import type { StructuralSchema } from './structural.js';
import { validate } from './validate.js';

// Schema walks look fields up in `properties` by own key only: a `__proto__` or `constructor` field
// in data is undeclared (pruned, unknown), never the schema of Object.prototype.
const schema: StructuralSchema = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { a: { type: 'string', default: 'd' } } } },
};
const data = () =>
  JSON.parse('{"spec":{"__proto__":{"x":1},"constructor":{"prototype":{"x":1}},"a":"y"}}') as {
    spec: Record<string, unknown>;
  };

describe('schema walks and prototype-named fields', () => {
  it('prune drops them as unknown fields', () => {
    const v = data();
    const removed = prune(v, schema, { isResourceRoot: false });
    expect(removed.sort()).toEqual(['spec.__proto__', 'spec.constructor']);
    expect(Object.keys(v.spec)).toEqual(['a']);
    expect('x' in {}).toBe(false);
  });

  it('defaulting and validation leave Object.prototype alone', () => {
    const v = applyDefaults(data(), schema);
    expect(v.spec.a).toBe('y');
    expect(validate(v, schema)).toEqual([]);
    expect('x' in {}).toBe(false);
  });
});
