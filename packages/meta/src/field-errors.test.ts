import { describe, expect, it } from 'vitest';
import { aggregateMessage, fieldErrors, formatBadValue, formatFieldCause, goSyntax } from './field-errors.js';

describe('formatBadValue', () => {
  const table: Array<[unknown, string]> = [
    ['x', '"x"'],
    ['a "q"', '"a \\"q\\""'],
    [3, '3'],
    [-1, '-1'],
    [true, 'true'],
    [null, 'null'],
    [undefined, 'null'],
    [[], '[]string{}'],
    [['a', 'b'], '[]string{"a", "b"}'],
    [{ a: 1 }, '{"a":1}'],
  ];
  it.each(table)('%j → %s', (v, want) => expect(formatBadValue(v)).toBe(want));

  it('prints Go %#v text (maps, structs) unquoted, as upstream; client data cannot pose as it', () => {
    expect(
      fieldErrors.invalid('spec.template.metadata.labels', goSyntax('map[string]string{"app":"a"}'), 'x')
        .message,
    ).toBe('Invalid value: map[string]string{"app":"a"}: x');
    expect(formatBadValue(JSON.parse('{"goSyntax":"raw"}'))).toBe('{"goSyntax":"raw"}');
  });
});

describe('fieldErrors', () => {
  const table: Array<[ReturnType<(typeof fieldErrors)[keyof typeof fieldErrors]>, string, string]> = [
    [fieldErrors.required('metadata.name'), 'FieldValueRequired', 'Required value'],
    [
      fieldErrors.required('metadata.name', 'name or generateName is required'),
      'FieldValueRequired',
      'Required value: name or generateName is required',
    ],
    [
      fieldErrors.invalid('spec.replicas', -1, 'must be greater than or equal to 0'),
      'FieldValueInvalid',
      'Invalid value: -1: must be greater than or equal to 0',
    ],
    [
      fieldErrors.forbidden('metadata.namespace', 'not allowed on this type'),
      'FieldValueForbidden',
      'Forbidden: not allowed on this type',
    ],
    [
      fieldErrors.tooLong('metadata.annotations', 262144),
      'FieldValueTooLong',
      'Too long: may not be more than 262144 bytes',
    ],
    [fieldErrors.tooLong('x', 1), 'FieldValueTooLong', 'Too long: may not be more than 1 byte'],
    [
      fieldErrors.notSupported('spec.type', 'Foo', ['A', 'B']),
      'FieldValueNotSupported',
      'Unsupported value: "Foo": supported values: "A", "B"',
    ],
    [fieldErrors.duplicate('spec.ports[1]', 'http'), 'FieldValueDuplicate', 'Duplicate value: "http"'],
  ];
  it.each(table)('%j', (cause, reason, message) => {
    expect(cause.reason).toBe(reason);
    expect(cause.message).toBe(message);
  });
});

describe('aggregateMessage', () => {
  it('one cause as is, several bracketed and deduplicated, <nil> for no field', () => {
    const a = fieldErrors.required('a');
    const b = fieldErrors.invalid('', 'x', 'bad');
    expect(aggregateMessage([a])).toBe('a: Required value');
    expect(aggregateMessage([a, b, a])).toBe('[a: Required value, <nil>: Invalid value: "x": bad]');
    expect(formatFieldCause(b)).toBe('<nil>: Invalid value: "x": bad');
  });
});
