import { countJsonKeys as countKeys } from '@orchard/meta/internal';
import { describe, expect, it } from 'vitest';
import { findDuplicateFieldsJson, scanJsonDuplicates } from './duplicates.js';

describe('JSON duplicate fields', () => {
  const cases: [string, string, string[]][] = [
    ['none', '{"a":1,"b":{"c":2}}', []],
    ['top level', '{"a":1,"a":2}', ['a']],
    ['nested', '{"metadata":{"name":"x","name":"y"}}', ['metadata.name']],
    [
      'in list item',
      '{"spec":{"containers":[{"name":"a"},{"name":"b","image":"i","image":"j"}]}}',
      ['spec.containers[1].image'],
    ],
    ['same key in siblings is fine', '[{"a":1},{"a":2}]', []],
    ['whitespace', '{ "a" : 1 ,\n "b": [ 1 , {"x" : 1, "x": 2} ], "a":3 }', ['b[1].x', 'a']],
    ['escaped key', '{"a\\"b":1,"a\\"b":2}', ['a"b']],
    ['unicode escape equal keys', '{"\\u0061":1,"a":2}', ['a']],
    ['quote-colon inside a string value', '{"a":"x\\":y","b":1}', []],
    ['braces inside strings', '{"a":"{\\"a\\":1,","b":"}"}', []],
    ['empty object key', '{"":1,"":2}', ['']],
  ];
  it.each(cases)('%s', (_n, text, expected) => {
    const parsed = JSON.parse(text);
    expect(findDuplicateFieldsJson(text, parsed)).toEqual(expected);
    expect(scanJsonDuplicates(text)).toEqual(expected);
  });

  it('counts parsed keys', () => {
    expect(countKeys({ a: 1, b: [{ c: 1 }, 2], d: { e: null } })).toBe(5);
  });
});
