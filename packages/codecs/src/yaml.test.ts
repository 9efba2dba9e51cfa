import { describe, expect, it } from 'vitest';
import { parseYaml, parseYamlDocument, yamlDuplicateMessage } from './yaml.js';
import { checkYamlBounds } from './yaml-bounds.js';

describe('YAML duplicate fields', () => {
  it('reports duplicates with line numbers and keeps the last value', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\ndata:\n  x: "1"\n';
    const { value, duplicates } = parseYamlDocument(text);
    expect(value).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { x: '1' } });
    expect(duplicates).toEqual([{ key: 'name', line: 5 }]);
    expect(yamlDuplicateMessage(duplicates[0]!)).toBe('line 5: key "name" already set in map');
  });
  it('finds none in a clean document', () => {
    expect(parseYamlDocument('a:\n  - b: 1\n  - b: 2\n').duplicates).toEqual([]);
  });
  it('throws on malformed YAML', () => {
    expect(() => parseYamlDocument('a: [1, 2\n')).toThrow();
  });
});

describe('YAML bounds (refused before the parser builds anything)', () => {
  const deepFlow = (n: number) => `a: ${'['.repeat(n)}${']'.repeat(n)}\n`;
  const deepBlock = (n: number) => `${'- '.repeat(n)}x\n`;
  const deepIndent = (n: number) =>
    Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' v\n';
  it.each([
    ['flow sequences', deepFlow],
    ['compact block sequences', deepBlock],
    ['indented mappings', deepIndent],
  ])('%s: 500 levels parse, 501 are refused', (_name, make) => {
    expect(() => parseYaml(make(495))).not.toThrow();
    expect(() => parseYaml(make(501))).toThrow(/nests collections more than 500 levels deep/);
  });

  it('refuses 1.5M levels of flow nesting (3 MB) quickly, without an engine message', () => {
    expect(() => parseYaml(deepFlow(1_500_000))).toThrow(
      /^error converting YAML to JSON: the document nests/,
    );
  });

  it('refuses JSON-as-YAML nested too deeply', () => {
    expect(() => parseYaml(`${'['.repeat(5000)}${']'.repeat(5000)}`)).toThrow(/more than 500 levels deep/);
  });

  it('refuses more nodes than the limit, and the limit is configurable', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: v`).join('\n');
    expect(() => parseYaml(keys(30_000))).toThrow(/holds more than 50000 nodes/);
    expect(() => checkYamlBounds(keys(30), 'application/yaml', { maxDepth: 10, maxNodes: 20 })).toThrow(
      /20 nodes/,
    );
    expect(parseYaml(keys(20_000))).toHaveProperty('k19999', 'v');
  });

  it('counts a block scalar as one node, whatever it holds', () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => `  line ${i}: a, b, [c]`).join('\n');
    expect(parseYaml(`script: |\n${lines}\n`)).toHaveProperty('script');
  });

  it('duplicate keys: linear detection, the last value wins, parseYaml refuses', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `k${i % 10_000}: ${i}`).join('\n');
    const { value, duplicates } = parseYamlDocument(text);
    expect(duplicates).toHaveLength(10_000);
    expect((value as Record<string, number>).k0).toBe(10_000);
    expect(() => parseYaml('a: 1\na: 2\n')).toThrow(/line 2: key "a" already set in map/);
    expect(yamlDuplicateMessage({ key: 'a', line: 2 })).toBe('line 2: key "a" already set in map');
  });

  it('JSON text takes the JSON path, and JSON with duplicate keys the YAML one', () => {
    const json = JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])));
    expect(parseYaml(json)).toHaveProperty('k99999', 99_999);
    expect(() => parseYaml('{"a": 1, "a": 2}')).toThrow(/already set in map/);
  });

  it('limits alias expansion (billion laughs)', () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++)
      laughs.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    expect(() => parseYaml(laughs.join('\n'))).toThrow(/error converting YAML to JSON/);
  });
});
