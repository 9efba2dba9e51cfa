import { describe, expect, it } from 'vitest';
import { celReservedSymbols, escapePropertyName, unescapePropertyName } from './escaping.js';

describe('property-name escaping', () => {
  it.each([
    ['foo', 'foo'],
    ['foo_bar', 'foo_bar'],
    ['__foo', '__underscores__foo'],
    ['a__b__c', 'a__underscores__b__underscores__c'],
    ['a.b', 'a__dot__b'],
    ['a-b', 'a__dash__b'],
    ['a/b', 'a__slash__b'],
    ['x-kubernetes.io/name', 'x__dash__kubernetes__dot__io__slash__name'],
    ['_x', '_x'],
    ['.dotfirst', '__dot__dotfirst'],
  ])('%s ↔ %s', (name, ident) => {
    expect(escapePropertyName(name)).toBe(ident);
    expect(unescapePropertyName(ident)).toBe(name);
  });

  it.each([...celReservedSymbols].map((kw) => [kw, `__${kw}__`]))('reserved keyword %s → %s', (kw, ident) => {
    expect(escapePropertyName(kw)).toBe(ident);
    expect(unescapePropertyName(ident)).toBe(kw);
  });

  it('covers every reserved word of the CEL grammar', () => {
    expect([...celReservedSymbols].sort()).toEqual(
      [
        'as',
        'break',
        'const',
        'continue',
        'else',
        'false',
        'for',
        'function',
        'if',
        'import',
        'in',
        'let',
        'loop',
        'namespace',
        'null',
        'package',
        'return',
        'true',
        'var',
        'void',
        'while',
      ].sort(),
    );
  });

  it.each(['1abc', 'a b', 'a:b', 'ünicode', ''])('%j is not accessible', (name) => {
    expect(escapePropertyName(name)).toBeUndefined();
  });

  it.each(['__bogus__', 'a__x'])('%j unescapes to nothing', (ident) => {
    expect(unescapePropertyName(ident)).toBeUndefined();
  });
});
