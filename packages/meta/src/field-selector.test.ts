import { describe, expect, it } from 'vitest';
import {
  defaultSelectableFields,
  escapeFieldValue,
  everythingFieldSelector,
  fieldSelectorFromSet,
  formatFieldSelector,
  objectFields,
  parseFieldSelector,
  unescapeFieldValue,
  validateFieldSelector,
} from './field-selector.js';
import { isApiError } from './status.js';

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (!isApiError(e)) throw e;
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    return e.message;
  }
  throw new Error('expected an error');
}

describe('parseFieldSelector: canonical form', () => {
  const table: Array<[string, string]> = [
    ['', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a=b'],
    ['a!=b', 'a!=b'],
    ['b=1,a=2', 'a=2,b=1'],
    ['a=b,,c=d', 'a=b,c=d'],
    [',a=b,', 'a=b'],
    ['a=', 'a='],
    ['metadata.name=x', 'metadata.name=x'],
    ['x=a\\,b', 'x=a\\,b'],
    ['x=a\\=b', 'x=a\\=b'],
    ['x=a\\\\b', 'x=a\\\\b'],
    ['x=a b', 'x=a b'],
    ['x=!b', 'x=!b'],
  ];
  it.each(table)('%j → %j', (input, out) => {
    const sel = parseFieldSelector(input);
    expect(formatFieldSelector(sel)).toBe(out);
    expect(parseFieldSelector(out).toString()).toBe(out);
  });
  it('unescapes values', () => {
    expect(parseFieldSelector('x=a\\,b\\=c\\\\d').requirements()).toEqual([
      { field: 'x', operator: '=', value: 'a,b=c\\d' },
    ]);
  });
});

describe('parseFieldSelector: errors', () => {
  const table: Array<[string, string]> = [
    ['a', "invalid selector: 'a'; can't understand 'a'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=b\\!', 'invalid field selector: invalid escape sequence: \\!'],
    ['a=\\n', 'invalid field selector: invalid escape sequence: \\n'],
  ];
  it.each(table)('%j → %j', (input, msg) => expect(errorOf(() => parseFieldSelector(input))).toBe(msg));
});

describe('ParsedFieldSelector.matches', () => {
  const fields = {
    'metadata.name': 'web',
    'metadata.namespace': 'prod',
    'status.phase': 'Active',
    'x.y': 'a,b',
  };
  const table: Array<[string, boolean]> = [
    ['', true],
    ['metadata.name=web', true],
    ['metadata.name==web', true],
    ['metadata.name=db', false],
    ['metadata.name!=db', true],
    ['metadata.name!=web', false],
    ['metadata.name=web,metadata.namespace=prod', true],
    ['metadata.name=web,metadata.namespace=dev', false],
    ['missing=', true],
    ['missing!=', false],
    ['missing=x', false],
    ['missing!=x', true],
    ['x.y=a\\,b', true],
    ['status.phase=Active', true],
  ];
  it.each(table)('%j → %s', (sel, want) => expect(parseFieldSelector(sel).matches(fields)).toBe(want));
  it('does not read prototype properties', () => {
    expect(parseFieldSelector('constructor=').matches({})).toBe(true);
  });
});

describe('requiresExactMatch', () => {
  const table: Array<[string, string, string | undefined]> = [
    ['metadata.name=x', 'metadata.name', 'x'],
    ['metadata.name==x', 'metadata.name', 'x'],
    ['metadata.name!=x', 'metadata.name', undefined],
    ['a=1,metadata.name=x', 'metadata.name', 'x'],
    ['a=1', 'metadata.name', undefined],
    ['metadata.name=', 'metadata.name', ''],
  ];
  it.each(table)('%j / %s → %j', (sel, f, want) =>
    expect(parseFieldSelector(sel).requiresExactMatch(f)).toBe(want),
  );
});

describe('validateFieldSelector', () => {
  it('accepts the default fields and rejects others', () => {
    expect(() =>
      validateFieldSelector(parseFieldSelector('metadata.name=a,metadata.namespace=b')),
    ).not.toThrow();
    expect(errorOf(() => validateFieldSelector(parseFieldSelector('spec.x=1')))).toBe(
      'field label not supported: spec.x',
    );
  });
  it('takes the supported set as a parameter', () => {
    const secretFields = [...defaultSelectableFields, 'type'];
    expect(() => validateFieldSelector(parseFieldSelector('type=Opaque'), secretFields)).not.toThrow();
    expect(errorOf(() => validateFieldSelector(parseFieldSelector('status.phase=x'), secretFields))).toBe(
      'field label not supported: status.phase',
    );
    const events = (f: string) => f.startsWith('involvedObject.') || defaultSelectableFields.includes(f);
    expect(() => validateFieldSelector(parseFieldSelector('involvedObject.name=x'), events)).not.toThrow();
    expect(errorOf(() => validateFieldSelector(parseFieldSelector('reason=x'), events))).toBe(
      'field label not supported: reason',
    );
  });
});

describe('objectFields', () => {
  it('gives metadata.name and metadata.namespace plus extras', () => {
    expect(objectFields({ metadata: { name: 'a', namespace: 'ns' } })).toEqual({
      'metadata.name': 'a',
      'metadata.namespace': 'ns',
    });
    expect(objectFields({ metadata: { name: 'n1' } }, { 'status.phase': 'Active' })).toEqual({
      'metadata.name': 'n1',
      'metadata.namespace': '',
      'status.phase': 'Active',
    });
    expect(objectFields({})).toEqual({ 'metadata.name': '', 'metadata.namespace': '' });
  });
  it('works with a parsed selector end to end', () => {
    const sel = parseFieldSelector('metadata.namespace=,type=Opaque');
    expect(sel.matches(objectFields({ metadata: { name: 'a' } }, { type: 'Opaque' }))).toBe(true);
    expect(sel.matches(objectFields({ metadata: { name: 'a', namespace: 'x' } }, { type: 'Opaque' }))).toBe(
      false,
    );
  });
});

describe('escaping', () => {
  const values = ['', 'plain', 'a,b', 'a=b', 'a\\b', '\\,=', 'a!=b'];
  it.each(values)('round-trips %j', (v) => expect(unescapeFieldValue(escapeFieldValue(v))).toBe(v));
  it('escapes exactly \\ , =', () => expect(escapeFieldValue('a\\b,c=d!e')).toBe('a\\\\b\\,c\\=d!e'));
  it('fromSet', () => {
    expect(fieldSelectorFromSet({ b: '1', a: 'x,y' }).toString()).toBe('a=x\\,y,b=1');
    expect(everythingFieldSelector.isEmpty()).toBe(true);
    expect(parseFieldSelector('a=b').isEmpty()).toBe(false);
  });
});
