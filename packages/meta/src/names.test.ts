import { describe, expect, it } from 'vitest';
import {
  generateName,
  generateNameAlphabet,
  isCIdentifier,
  isConfigMapKey,
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isEnvVarName,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPortName,
  isValidPortNum,
  nameIsDns1035Label,
  nameIsDnsLabel,
  nameIsDnsSubdomain,
  nameIsPathSegment,
  newUid,
} from './names.js';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const namePartMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('isDns1123Subdomain', () => {
  const valid = [
    'a',
    'ab',
    'abc',
    'a1',
    'a-1',
    'a--1--2--b',
    '0',
    '01',
    '1.a',
    'a.b.c',
    'example.com',
    'a'.repeat(253),
  ];
  const invalid = [
    '',
    'A',
    'ABC',
    'aBc',
    'a_1',
    'a..1',
    '-a',
    'a-',
    '.a',
    'a.',
    'a@b',
    'a,b',
    'a b',
    '1 ',
    ' 1',
  ];
  it.each(valid)('accepts %j', (v) => expect(isDns1123Subdomain(v)).toEqual([]));
  it.each(invalid)('rejects %j with the upstream message', (v) =>
    expect(isDns1123Subdomain(v)).toEqual([subdomainMsg]),
  );
  it('reports length and pattern separately', () => {
    expect(isDns1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
    expect(isDns1123Subdomain(`-${'a'.repeat(254)}`)).toEqual([
      'must be no more than 253 characters',
      subdomainMsg,
    ]);
  });
});

describe('isDns1123Label', () => {
  const valid = ['a', 'ab', 'a1', 'a-1', 'a--1--2--b', '0', '01', 'a'.repeat(63)];
  const invalid = ['', 'A', 'a_1', '-a', 'a-', 'a b', 'a@b'];
  it.each(valid)('accepts %j', (v) => expect(isDns1123Label(v)).toEqual([]));
  it.each(invalid)('rejects %j', (v) => expect(isDns1123Label(v)).toEqual([labelMsg]));
  it('says dots are the problem when the value is a subdomain', () => {
    expect(isDns1123Label('a.b')).toEqual(['must not contain dots']);
  });
  it('limits length to 63', () => {
    expect(isDns1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
});

describe('isQualifiedName', () => {
  const valid = [
    'simple',
    'now-with-dashes',
    '1-starts-with-num',
    '1234',
    'simple/simple',
    'now-with-dashes/simple',
    'now-with-dashes/now-with-dashes',
    'now.with.dots/now-with-dashes',
    'now-with.dashes-and.dots/now-with-dashes',
    'now.with.dots/now.with.dots',
    'now-with.dashes-and.dots/now-with.dashes-and.dots',
    '1.2.3.4/5678',
    'Uppercase_Is_OK_123',
    'example.com/Uppercase_Is_OK_123',
    'requests.storage-foo',
    'a'.repeat(63),
    `${'a'.repeat(253)}/${'b'.repeat(63)}`,
  ];
  it.each(valid)('accepts %j', (v) => expect(isQualifiedName(v)).toEqual([]));
  const table: Array<[string, string[]]> = [
    ['', ['name part must be non-empty', namePartMsg]],
    [' ', [namePartMsg]],
    ['simple/', ['name part must be non-empty', namePartMsg]],
    ['/simple', ['prefix part must be non-empty']],
    ['Nope/simple', [`prefix part ${subdomainMsg}`]],
    ['nospecialchars%^=@', [namePartMsg]],
    ['-starts-with-dash', [namePartMsg]],
    ['ends-with-dash-', [namePartMsg]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    [
      'a/b/c',
      [
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
  ];
  it.each(table)('rejects %j', (v, msgs) => expect(isQualifiedName(v)).toEqual(msgs));
});

describe('isValidLabelValue', () => {
  const valid = [
    '',
    'simple',
    'now-with-dashes',
    '1-starts-with-num',
    'end-with-num-1',
    '1234',
    'a'.repeat(63),
    'A_b.c-9',
  ];
  const invalid = [
    'nospecialchars%^=@',
    'Tama-nui-te-rā.is.Māori.sun',
    '\\backslashes\\are\\bad',
    '-starts-with-dash',
    'ends-with-dash-',
    '.starts.with.dot',
    'ends.with.dot.',
    'a b',
  ];
  it.each(valid)('accepts %j', (v) => expect(isValidLabelValue(v)).toEqual([]));
  it.each(invalid)('rejects %j', (v) => expect(isValidLabelValue(v)).toEqual([labelValueMsg]));
  it('limits length to 63', () =>
    expect(isValidLabelValue('a'.repeat(64))).toEqual(['must be no more than 63 characters']));
});

describe('path segment names', () => {
  const table: Array<[string, boolean, string[]]> = [
    ['ok', false, []],
    ['Any Thing:at-all', false, []],
    ['.', false, ["may not be '.'"]],
    ['..', false, ["may not be '..'"]],
    ['...', false, []],
    ['a/b', false, ["may not contain '/'"]],
    ['a%b', false, ["may not contain '%'"]],
    ['a/%', false, ["may not contain '/'", "may not contain '%'"]],
    ['.', true, []],
    ['a/', true, ["may not contain '/'"]],
  ];
  it.each(table)('%j (prefix=%s)', (name, prefix, msgs) => {
    expect(nameIsPathSegment(name, prefix)).toEqual(msgs);
    if (!prefix) expect(isValidPathSegmentName(name)).toEqual(msgs);
  });
});

describe('name validators with generateName prefixes', () => {
  it('accept a trailing dash only as a prefix', () => {
    expect(nameIsDnsSubdomain('web-', true)).toEqual([]);
    expect(nameIsDnsSubdomain('web-', false)).toEqual([subdomainMsg]);
    expect(nameIsDnsLabel('web-', true)).toEqual([]);
    expect(nameIsDnsLabel('web-', false)).toEqual([labelMsg]);
    expect(nameIsDnsSubdomain('-', true)).toEqual([subdomainMsg]);
  });
});

describe('generateName', () => {
  it('appends five characters from the upstream alphabet', () => {
    for (let i = 0; i < 200; i++) {
      const n = generateName('web-');
      expect(n).toMatch(new RegExp(`^web-[${generateNameAlphabet}]{5}$`));
    }
  });
  it('truncates the base so the result fits 63 characters', () => {
    const n = generateName('x'.repeat(100));
    expect(n.length).toBe(63);
    expect(n.startsWith('x'.repeat(58))).toBe(true);
    expect(n.slice(58)).toMatch(new RegExp(`^[${generateNameAlphabet}]{5}$`));
  });
  it('uses every character of the alphabet and no other', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) for (const c of generateName('')) seen.add(c);
    expect([...seen].sort().join('')).toBe([...generateNameAlphabet].sort().join(''));
  });
  it('draws from a pooled random source across many pool refills without repeating a sequence', () => {
    // 5,000 names take ~25,000 pooled bytes (several 4 KiB refills); 27^5 ≈ 14.3M suffixes, so
    // a repeat among 5,000 is unlikely (~0.09%), and 10 repeats would mean a broken pool.
    const names = new Set<string>();
    for (let i = 0; i < 5000; i++) names.add(generateName(''));
    expect(names.size).toBeGreaterThan(4990);
  });
});

describe('newUid', () => {
  it('returns distinct RFC 4122 v4 UUIDs', () => {
    const a = newUid();
    const b = newUid();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });
});

describe('other upstream validators', () => {
  const dns1035 =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
  const table: Array<[string, (v: string) => string[], string, string[]]> = [
    ['dns1035', isDns1035Label, 'my-svc', []],
    ['dns1035', isDns1035Label, '1svc', [dns1035]],
    ['dns1035', isDns1035Label, 'a'.repeat(64), ['must be no more than 63 characters']],
    ['configmap key', isConfigMapKey, 'key.name', []],
    ['configmap key', isConfigMapKey, 'KEY_NAME-1', []],
    ['configmap key', isConfigMapKey, '.dotfile', []],
    ['configmap key', isConfigMapKey, '.', ["must not be '.'"]],
    ['configmap key', isConfigMapKey, '..', ["must not be '..'"]],
    ['configmap key', isConfigMapKey, '..a', ["must not start with '..'"]],
    [
      'configmap key',
      isConfigMapKey,
      'a/b',
      [
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      ],
    ],
    ['env var', isEnvVarName, 'MY_ENV.NAME', []],
    [
      'env var',
      isEnvVarName,
      '1A',
      [
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
      ],
    ],
    ['c identifier', isCIdentifier, '_a1', []],
    [
      'c identifier',
      isCIdentifier,
      'a-b',
      [
        "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
      ],
    ],
    ['port name', isValidPortName, 'http', []],
    ['port name', isValidPortName, 'h-2', []],
    ['port name', isValidPortName, '123', ['must contain at least one letter (a-z)']],
    ['port name', isValidPortName, 'a--b', ['must not contain consecutive hyphens']],
    ['port name', isValidPortName, '-ab', ['must not begin or end with a hyphen']],
    [
      'port name',
      isValidPortName,
      'Very_Long_Port_Name',
      [
        'must be no more than 15 characters',
        'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
    ],
  ];
  it.each(table)('%s #%#', (_n, fn, v, want) => expect(fn(v)).toEqual(want));
  it('port numbers and DNS-1035 generateName', () => {
    expect(isValidPortNum(1)).toEqual([]);
    expect(isValidPortNum(65535)).toEqual([]);
    expect(isValidPortNum(0)).toEqual(['must be between 1 and 65535, inclusive']);
    expect(isValidPortNum(65536)).toEqual(['must be between 1 and 65535, inclusive']);
    expect(nameIsDns1035Label('svc-', true)).toEqual([]);
    expect(nameIsDns1035Label('svc-', false)).toHaveLength(1);
  });
});
