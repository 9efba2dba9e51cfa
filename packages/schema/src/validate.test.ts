import { describe, expect, it } from 'vitest';
import { formatFieldError } from './field-error.js';
import type { StructuralSchema } from './structural.js';
import { validate } from './validate.js';

const schema: StructuralSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['replicas'],
      properties: {
        replicas: { type: 'integer', minimum: 0, maximum: 10 },
        name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
        mode: { type: 'string', enum: ['a', 'b'] },
        when: { type: 'string', format: 'date-time' },
        data: { type: 'string', format: 'byte' },
        small: { type: 'integer', format: 'int32' },
        port: { intOrString: true },
        ratio: { type: 'number', exclusiveMaximum: true, maximum: 1, multipleOf: 0.25 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 2, minItems: 1, listType: 'set' },
        labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 1 },
        opt: { type: 'string', nullable: true },
        any: { preserveUnknownFields: true },
        items: {
          type: 'array',
          listType: 'map',
          listMapKeys: ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        },
        either: { type: 'string', anyOf: [{ pattern: '^x' }, { pattern: 'y$' }] },
        embedded: { type: 'object', embeddedResource: true, preserveUnknownFields: true },
        cpu: {
          format: 'quantity',
          anyOf: [{ type: 'integer' }, { type: 'number' }, { type: 'string', format: 'quantity' }],
        },
      },
    },
  },
};

const ok = { spec: { replicas: 1 } };
const cases: [string, unknown, string[]][] = [
  ['valid minimal', ok, []],
  [
    'type error',
    { spec: { replicas: 'three' } },
    ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
  ],
  [
    'float for integer',
    { spec: { replicas: 1.5 } },
    ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"'],
  ],
  ['required', { spec: {} }, ['spec.replicas: Required value']],
  [
    'maximum',
    { spec: { replicas: 11 } },
    ['spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10'],
  ],
  [
    'minimum',
    { spec: { replicas: -1 } },
    ['spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0'],
  ],
  [
    'enum',
    { spec: { replicas: 1, mode: 'c' } },
    ['spec.mode: Unsupported value: "c": supported values: "a", "b"'],
  ],
  [
    'pattern',
    { spec: { replicas: 1, name: 'AB' } },
    ['spec.name: Invalid value: "AB": spec.name in body should match \'^[a-z]+$\''],
  ],
  [
    'maxLength',
    { spec: { replicas: 1, name: 'abcdef' } },
    ['spec.name: Too long: may not be more than 5 bytes'],
  ],
  [
    'minLength',
    { spec: { replicas: 1, name: 'a' } },
    ['spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long'],
  ],
  ['date-time ok', { spec: { replicas: 1, when: '2024-01-02T03:04:05Z' } }, []],
  [
    'date-time bad',
    { spec: { replicas: 1, when: 'yesterday' } },
    ['spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"'],
  ],
  [
    'byte bad',
    { spec: { replicas: 1, data: '@@@' } },
    ['spec.data: Invalid value: "@@@": spec.data in body must be of type byte: "@@@"'],
  ],
  [
    'int32 overflow',
    { spec: { replicas: 1, small: 2 ** 31 } },
    ['spec.small: Invalid value: 2147483648: spec.small in body must be of type int32: "2147483648"'],
  ],
  ['int-or-string int', { spec: { replicas: 1, port: 80 } }, []],
  ['int-or-string string', { spec: { replicas: 1, port: 'http' } }, []],
  [
    'int-or-string bool',
    { spec: { replicas: 1, port: true } },
    ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"'],
  ],
  [
    'exclusive maximum',
    { spec: { replicas: 1, ratio: 1 } },
    ['spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1'],
  ],
  [
    'multipleOf',
    { spec: { replicas: 1, ratio: 0.3 } },
    ['spec.ratio: Invalid value: 0.3: spec.ratio in body should be a multiple of 0.25'],
  ],
  [
    'maxItems',
    { spec: { replicas: 1, tags: ['a', 'b', 'c'] } },
    ['spec.tags: Too many: 3: must have at most 2 items'],
  ],
  [
    'minItems',
    { spec: { replicas: 1, tags: [] } },
    ['spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items'],
  ],
  ['set duplicate', { spec: { replicas: 1, tags: ['a', 'a'] } }, ['spec.tags[1]: Duplicate value: "a"']],
  [
    'item type',
    { spec: { replicas: 1, tags: [1] } },
    ['spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer"'],
  ],
  [
    'maxProperties',
    { spec: { replicas: 1, labels: { a: 'x', b: 'y' } } },
    ['spec.labels: Too many: 2: must have at most 1 items'],
  ],
  [
    'map value type',
    { spec: { replicas: 1, labels: { a: 1 } } },
    ['spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"'],
  ],
  ['nullable', { spec: { replicas: 1, opt: null } }, []],
  [
    'not nullable',
    { spec: { replicas: null } },
    ['spec.replicas: Invalid value: "null": spec.replicas in body must be of type integer: "null"'],
  ],
  ['preserve any', { spec: { replicas: 1, any: { x: [1, { y: 2 }] } } }, []],
  [
    'map list duplicate key',
    { spec: { replicas: 1, items: [{ name: 'a' }, { name: 'a' }] } },
    ['spec.items[1]: Duplicate value: {"name":"a"}'],
  ],
  ['map list item required', { spec: { replicas: 1, items: [{}] } }, ['spec.items[0].name: Required value']],
  ['anyOf ok', { spec: { replicas: 1, either: 'xa' } }, []],
  [
    'anyOf bad',
    { spec: { replicas: 1, either: 'ab' } },
    [
      'spec.either: Invalid value: "ab": spec.either in body must be valid against at least one of the anyOf schemas',
    ],
  ],
  ['embedded resource ok', { spec: { replicas: 1, embedded: { apiVersion: 'v1', kind: 'Pod' } } }, []],
  [
    'embedded resource without apiVersion/kind',
    { spec: { replicas: 1, embedded: { metadata: {} } } },
    [
      'spec.embedded.apiVersion: Required value: must not be empty',
      'spec.embedded.kind: Required value: must not be empty',
    ],
  ],
  ['quantity string', { spec: { replicas: 1, cpu: '500m' } }, []],
  ['quantity number', { spec: { replicas: 1, cpu: 0.5 } }, []],
  [
    'bad quantity',
    { spec: { replicas: 1, cpu: 'lots' } },
    [
      `spec.cpu: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ],
  ],
  ['root type', 'str', ['Invalid value: "string": <root> in body must be of type object: "string"']],
];

describe('validate', () => {
  it.each(cases)('%s', (_name, value, expected) => {
    expect(validate(value, schema).map(formatFieldError)).toEqual(expected);
  });

  it('stops at maxErrors', () => {
    expect(validate({ spec: { replicas: 'x', mode: 'q' } }, schema, { maxErrors: 1 })).toHaveLength(1);
  });

  it('carries the cause type', () => {
    const [e] = validate({ spec: {} }, schema);
    expect(e).toMatchObject({ type: 'FieldValueRequired', field: 'spec.replicas' });
  });
});

describe('validate on long lists', () => {
  it('finds the duplicates of a 100 000-element set without pairwise comparison', () => {
    const list = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    list.push('v7', 'v99999');
    const errs = validate(list, { type: 'array', listType: 'set', items: { type: 'string' } });
    expect(errs.map((e) => e.field)).toEqual(['[100000]', '[100001]']);
  });
  it('treats objects with reordered keys as equal in a set', () => {
    const errs = validate(
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      { type: 'array', uniqueItems: true, items: { type: 'object' } },
    );
    expect(errs.map((e) => e.field)).toEqual(['[1]']);
  });
});
