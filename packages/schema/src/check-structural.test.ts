import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { checkStructural } from './check-structural.js';
import { formatFieldError } from './field-error.js';

const k = kubernetesFlavor;
const P = 'spec.versions[0].schema.openAPIV3Schema';

const cases: [string, Record<string, unknown>, string[]][] = [
  [
    'structural',
    {
      type: 'object',
      properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } },
    },
    [],
  ],
  [
    'missing type',
    { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } },
    [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`],
  ],
  [
    'int-or-string needs no type',
    { type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true } } },
    [],
  ],
  [
    'int-or-string with type',
    { type: 'object', properties: { port: { type: 'string', 'x-kubernetes-int-or-string': true } } },
    [
      `${P}.properties[port].type: Invalid value: "string": must be empty if x-kubernetes-int-or-string is true`,
    ],
  ],
  [
    'preserve-unknown needs no type',
    { type: 'object', properties: { any: { 'x-kubernetes-preserve-unknown-fields': true } } },
    [],
  ],
  [
    'properties with additionalProperties',
    {
      type: 'object',
      properties: {
        m: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: { type: 'string' },
        },
      },
    },
    [
      `${P}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ],
  ],
  [
    'array without items',
    { type: 'object', properties: { l: { type: 'array' } } },
    [`${P}.properties[l].items: Required value: must be specified`],
  ],
  ['root not object', { type: 'string' }, [`${P}.type: Invalid value: "string": must be object at the root`]],
  [
    'metadata beyond name',
    {
      type: 'object',
      properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
    },
    [
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  ],
  [
    'metadata name restriction ok',
    {
      type: 'object',
      properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } },
    },
    [],
  ],
  [
    '$ref forbidden',
    { type: 'object', properties: { a: { type: 'object', $ref: '#/x' } } },
    [`${P}.properties[a].$ref: Forbidden: $ref is not supported`],
  ],
  [
    'uniqueItems forbidden',
    { type: 'object', properties: { a: { type: 'array', uniqueItems: true, items: { type: 'string' } } } },
    [
      `${P}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ],
  ],
  [
    'type in value validation',
    { type: 'object', properties: { a: { type: 'string', anyOf: [{ type: 'string' }] } } },
    [`${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`],
  ],
  [
    'list-map-keys without map',
    {
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['x'] } },
    },
    [
      `${P}.properties[a].x-kubernetes-list-map-keys: Forbidden: must not be set if x-kubernetes-list-type is not map`,
    ],
  ],
  [
    'list map key missing',
    {
      type: 'object',
      properties: {
        a: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { v: { type: 'string' } } },
        },
      },
    },
    [
      `${P}.properties[a].items.properties[name]: Required value: must have all properties listed in x-kubernetes-list-map-keys`,
    ],
  ],
  [
    'list map key not required',
    {
      type: 'object',
      properties: {
        a: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
    },
    [
      `${P}.properties[a].x-kubernetes-list-map-keys[0]: Required value: all map keys must be required or have a default value`,
    ],
  ],
  [
    'set of objects',
    {
      type: 'object',
      properties: { a: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } } },
    },
    [
      `${P}.properties[a].items.type: Invalid value: "object": must be a scalar type if parent array type is set`,
    ],
  ],
  [
    'bad pattern',
    { type: 'object', properties: { a: { type: 'string', pattern: '(?=x)' } } },
    [`${P}.properties[a].pattern: Invalid value: "(?=x)": must be a valid regular expression, but isn't`],
  ],
  [
    'preserve false',
    { type: 'object', 'x-kubernetes-preserve-unknown-fields': false },
    [`${P}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`],
  ],
  [
    'embedded resource needs object',
    { type: 'object', properties: { e: { type: 'string', 'x-kubernetes-embedded-resource': true } } },
    [
      `${P}.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
      `${P}.properties[e].x-kubernetes-embedded-resource: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`.replace(
        'x-kubernetes-embedded-resource: Required',
        'properties: Required',
      ),
    ],
  ],
  [
    'unknown type',
    { type: 'object', properties: { a: { type: 'null' } } },
    [
      `${P}.properties[a].type: Unsupported value: "null": supported values: "object", "array", "string", "integer", "number", "boolean"`,
    ],
  ],
];

describe('checkStructural', () => {
  it.each(cases)('%s', (_n, schema, expected) => {
    expect(checkStructural(schema, k, { path: P }).map(formatFieldError)).toEqual(expected);
  });
  it('uses the flavor extension names', () => {
    const errs = checkStructural(
      {
        type: 'object',
        properties: { p: { 'x-orch-int-or-string': true }, q: { 'x-kubernetes-int-or-string': true } },
      },
      orchFlavor,
    );
    expect(errs.map((e) => e.field)).toEqual(['.properties[q].type']);
  });
});
