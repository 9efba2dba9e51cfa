import { describe, expect, it } from 'vitest';
import {
  createLabelRequirement,
  everythingLabelSelector,
  formatLabelSelector,
  labelSelectorFromObject,
  labelSelectorFromSet,
  labelSelectorToObject,
  nothingLabelSelector,
  parseLabelSelector,
  validateLabelSelector,
} from './label-selector.js';
import { isApiError } from './status.js';

function parseError(s: string): string {
  try {
    parseLabelSelector(s);
  } catch (e) {
    if (!isApiError(e)) throw e;
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    return e.message;
  }
  throw new Error(`expected ${JSON.stringify(s)} to fail`);
}

describe('parseLabelSelector: valid input and canonical form', () => {
  const table: Array<[string, string]> = [
    ['', ''],
    ['   ', ''],
    ['x=a', 'x=a'],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,y=b,x=a', 'x=a,y=b,z=c'],
    [' x = a , y = b ', 'x=a,y=b'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    ['x=', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x in (a)', 'x in (a)'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in (a,a,b)', 'x in (a,b)'],
    ['x in ()', 'x in ()'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (a,)', 'x in (,a)'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['x notin (a,b)', 'x notin (a,b)'],
    ['x in(a)', 'x in (a)'],
    ['x', 'x'],
    ['!x', '!x'],
    [' ! x ', '!x'],
    ['x,!y', 'x,!y'],
    ['x>1', 'x>1'],
    ['x<0', 'x<0'],
    ['x=in', 'x=in'],
    ['x in (in,notin)', 'x in (in,notin)'],
    ['x=a,x!=b', 'x=a,x!=b'],
    ['example.com/app=web', 'example.com/app=web'],
    ['\tx\n=\ra', 'x=a'],
    ['x=a_b.c-d', 'x=a_b.c-d'],
  ];
  it.each(table)('%j → %j', (input, canonical) => {
    const sel = parseLabelSelector(input);
    expect(formatLabelSelector(sel)).toBe(canonical);
    expect(sel.toString()).toBe(canonical);
    // the canonical form parses back to itself
    expect(formatLabelSelector(parseLabelSelector(canonical))).toBe(canonical);
  });
});

describe('parseLabelSelector: errors', () => {
  const table: Array<[string, string]> = [
    [
      'x=a||y=b',
      "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    [',', "found ',', expected: !, identifier, or 'end of string'"],
    ['x,', "found '', expected: identifier after ','"],
    ['x,,y', "found ',', expected: identifier after ','"],
    ['x=a,=b', "found '=', expected: identifier after ','"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    // upstream quirk: a doubled comma right before ')' is an error, a single one is an empty value
    ['x in (,,)', "unable to parse requirement: found ')', expected: ',', or identifier"],
    ['x in (a,,)', "unable to parse requirement: found ')', expected: ',', or identifier"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in', "unable to parse requirement: found '' expected: '('"],
    ['x a', "unable to parse requirement: found 'a', expected: in, notin, =, ==, !=, gt, lt"],
    ['x (', "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    [
      'x>a',
      "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer",
    ],
    [
      'x<-1',
      "unable to parse requirement: values[0][x]: Invalid value: \"-1\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    [
      'x>',
      "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer",
    ],
    [
      'x>9223372036854775808',
      "unable to parse requirement: values[0]: Invalid value: \"9223372036854775808\": for 'Gt', 'Lt' operators, the value must be an integer",
    ],
    [
      'a/b/c=x',
      "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
    [
      '-x',
      "unable to parse requirement: <nil>: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
    [
      'x=' + 'a'.repeat(64),
      `unable to parse requirement: values[0][x]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`,
    ],
  ];
  it.each(table)('%j → %j', (input, message) => expect(parseError(input)).toBe(message));
});

describe('ParsedLabelSelector.matches', () => {
  const labels = { env: 'prod', tier: 'web', n: '10', empty: '' };
  const table: Array<[string, Record<string, string> | null, boolean]> = [
    ['', labels, true],
    ['', null, true],
    ['env=prod', labels, true],
    ['env==prod', labels, true],
    ['env=dev', labels, false],
    ['env!=dev', labels, true],
    ['env!=prod', labels, false],
    ['missing!=x', labels, true],
    ['missing=x', labels, false],
    ['missing=', labels, false],
    ['empty=', labels, true],
    ['env in (dev,prod)', labels, true],
    ['env in (dev,qa)', labels, false],
    ['missing in (a)', labels, false],
    ['env notin (dev,prod)', labels, false],
    ['env notin (dev)', labels, true],
    ['missing notin (a)', labels, true],
    ['env', labels, true],
    ['missing', labels, false],
    ['!env', labels, false],
    ['!missing', labels, true],
    ['env=prod,tier=web', labels, true],
    ['env=prod,tier=db', labels, false],
    ['n>9', labels, true],
    ['n>10', labels, false],
    ['n<11', labels, true],
    ['n<10', labels, false],
    ['env>1', labels, false],
    ['missing>1', labels, false],
    ['!missing', null, true],
    ['missing notin (a)', null, true],
    ['env', null, false],
  ];
  it.each(table)('%j on %j → %s', (sel, ls, want) => expect(parseLabelSelector(sel).matches(ls)).toBe(want));
  it('does not treat prototype properties as labels', () => {
    expect(parseLabelSelector('constructor').matches({})).toBe(false);
    expect(parseLabelSelector('!toString').matches({})).toBe(true);
  });
});

describe('selector accessors', () => {
  it('exposes requirements sorted by key', () => {
    const sel = parseLabelSelector('b in (y,x),a=1,!c');
    expect(sel.requirements()).toEqual([
      { key: 'a', operator: '=', values: ['1'] },
      { key: 'b', operator: 'in', values: ['x', 'y'] },
      { key: 'c', operator: '!', values: [] },
    ]);
    expect(sel.isEmpty()).toBe(false);
    expect(parseLabelSelector('').isEmpty()).toBe(true);
  });
  it('reports exact matches', () => {
    const sel = parseLabelSelector('a=1,b in (x),c in (x,y),d!=1,e==2');
    expect(sel.requiresExactMatch('a')).toBe('1');
    expect(sel.requiresExactMatch('b')).toBe('x');
    expect(sel.requiresExactMatch('c')).toBeUndefined();
    expect(sel.requiresExactMatch('d')).toBeUndefined();
    expect(sel.requiresExactMatch('e')).toBe('2');
    expect(sel.requiresExactMatch('z')).toBeUndefined();
  });
  it('adds requirements without mutating', () => {
    const a = parseLabelSelector('x=1');
    const b = a.add(createLabelRequirement('w', 'exists'));
    expect(a.toString()).toBe('x=1');
    expect(b.toString()).toBe('w,x=1');
  });
  it('everything and nothing', () => {
    expect(everythingLabelSelector.matches({ a: 'b' })).toBe(true);
    expect(nothingLabelSelector.matches({ a: 'b' })).toBe(false);
    expect(nothingLabelSelector.matches(null)).toBe(false);
  });
});

describe('createLabelRequirement', () => {
  const table: Array<[string, Parameters<typeof createLabelRequirement>, string | null]> = [
    ['valid in', ['k', 'in', ['a']], null],
    [
      'empty in',
      ['k', 'in', []],
      "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'two values for =',
      ['k', '=', ['a', 'b']],
      'values: Invalid value: []string{"a", "b"}: exact-match compatibility requires one single value',
    ],
    [
      'values for exists',
      ['k', 'exists', ['a']],
      'values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist',
    ],
    [
      'bad key and bad value',
      ['k k', '=', ['v v']],
      "[key: Invalid value: \"k k\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values[0][k k]: Invalid value: \"v v\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
    ],
    [
      'bad operator',
      ['k', 'like' as never, ['a']],
      'operator: Unsupported value: "like": supported values: "!", "=", "==", "in", "!=", "notin", "exists", "gt", "lt"',
    ],
  ];
  it.each(table)('%s', (_name, args, message) => {
    if (message === null) {
      expect(createLabelRequirement(...args).key).toBe(args[0]);
      return;
    }
    expect(() => createLabelRequirement(...args)).toThrow(message);
  });
});

describe('structured LabelSelector', () => {
  it('null selects nothing, {} selects everything', () => {
    expect(labelSelectorFromObject(null).matches({})).toBe(false);
    expect(labelSelectorFromObject(undefined).matches({ a: 'b' })).toBe(false);
    expect(labelSelectorFromObject({}).matches({ a: 'b' })).toBe(true);
    expect(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).isEmpty()).toBe(true);
  });
  const table: Array<[string, Parameters<typeof labelSelectorFromObject>[0], string]> = [
    ['matchLabels', { matchLabels: { b: '2', a: '1' } }, 'a=1,b=2'],
    [
      'expressions',
      {
        matchExpressions: [
          { key: 'x', operator: 'In', values: ['b', 'a'] },
          { key: 'y', operator: 'NotIn', values: ['c'] },
          { key: 'w', operator: 'Exists' },
          { key: 'z', operator: 'DoesNotExist', values: null },
        ],
      },
      'w,x in (a,b),y notin (c),!z',
    ],
    [
      'both',
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
      'app=web,env in (prod)',
    ],
  ];
  it.each(table)('%s', (_n, ps, str) => {
    const sel = labelSelectorFromObject(ps);
    expect(sel.toString()).toBe(str);
    expect(labelSelectorFromObject(labelSelectorToObject(sel)).toString()).toBe(str);
  });
  it('matches like the string form', () => {
    const sel = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }],
    });
    expect(sel.matches({ app: 'web' })).toBe(true);
    expect(sel.matches({ app: 'web', env: 'dev' })).toBe(false);
    expect(sel.matches({ app: 'db' })).toBe(false);
  });
  it('rejects unknown operators and invalid values', () => {
    expect(() =>
      labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }),
    ).toThrow('"Gt" is not a valid label selector operator');
    expect(() =>
      labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
    ).toThrow("for 'in', 'notin' operators, values set can't be empty");
    expect(() => labelSelectorFromObject({ matchLabels: { a: 'b c' } })).toThrow(
      'values[0][a]: Invalid value: "b c"',
    );
  });
  it('toObject refuses operators the structured form lacks', () => {
    expect(() => labelSelectorToObject(parseLabelSelector('a!=b'))).toThrow('invalid operator: !=');
    expect(labelSelectorToObject(parseLabelSelector('a==b'))).toEqual({ matchLabels: { a: 'b' } });
  });
  it('labelSelectorFromSet', () => {
    expect(labelSelectorFromSet({ b: '2', a: '1' }).toString()).toBe('a=1,b=2');
    expect(labelSelectorFromSet(null).isEmpty()).toBe(true);
  });
});

describe('validateLabelSelector', () => {
  it('returns upstream causes', () => {
    const causes = validateLabelSelector(
      {
        matchLabels: { 'bad key!': 'ok' },
        matchExpressions: [
          { key: 'a', operator: 'In', values: [] },
          { key: 'b', operator: 'Exists', values: ['x'] },
          { key: 'c', operator: 'Foo' },
        ],
      },
      'spec.selector',
    );
    expect(causes.map((c) => [c.reason, c.field])).toEqual([
      ['FieldValueInvalid', 'spec.selector.matchLabels'],
      ['FieldValueRequired', 'spec.selector.matchExpressions[0].values'],
      ['FieldValueForbidden', 'spec.selector.matchExpressions[1].values'],
      ['FieldValueInvalid', 'spec.selector.matchExpressions[2].operator'],
    ]);
    expect(causes[1]?.message).toBe("Required value: must be specified when `operator` is 'In' or 'NotIn'");
    expect(causes[3]?.message).toBe('Invalid value: "Foo": not a valid selector operator');
    expect(validateLabelSelector({ matchLabels: { a: 'b' } }, 'spec.selector')).toEqual([]);
    const bad = { matchExpressions: [{ key: 'a', operator: 'In', values: ['ok', 'not ok'] }] };
    expect(validateLabelSelector(bad, 'spec.selector').map((c) => c.field)).toEqual([
      'spec.selector.matchExpressions[0].values[1]',
    ]);
    expect(validateLabelSelector(bad, 'spec.selector', { allowInvalidLabelValueInSelector: true })).toEqual(
      [],
    );
    expect(validateLabelSelector(null, 'spec.selector')).toEqual([]);
  });
});
