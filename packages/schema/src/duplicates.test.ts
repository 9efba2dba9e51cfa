import { describe, expect, it } from 'vitest';
import {
  countKeys,
  findDuplicateFieldsJson,
  parseYamlWithDuplicates,
  scanJsonDuplicates,
  yamlDuplicateMessage,
} from './duplicates.js';

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

describe('YAML duplicate fields', () => {
  it('reports duplicates with line numbers and keeps the last value', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\ndata:\n  x: "1"\n';
    const { value, duplicates } = parseYamlWithDuplicates(text);
    expect(value).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { x: '1' } });
    expect(duplicates).toEqual([{ path: 'metadata.name', key: 'name', line: 5 }]);
    expect(yamlDuplicateMessage(duplicates[0]!)).toBe('line 5: key "name" already set in map');
  });
  it('finds none in a clean document', () => {
    expect(parseYamlWithDuplicates('a:\n  - b: 1\n  - b: 2\n').duplicates).toEqual([]);
  });
  it('throws on malformed YAML', () => {
    expect(() => parseYamlWithDuplicates('a: [1, 2\n')).toThrow();
  });
});
