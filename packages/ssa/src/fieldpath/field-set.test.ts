import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { decodeFieldsV1, encodeFieldsV1, fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import { comparePathElements, formatPath, makePath, PathElement } from './path-element.js';

/** Sets are written as FieldsV1 objects in these tables: the notation upstream stores them in. */
const S = (v: object) => fromFieldsV1(v);
const F = (s: FieldSet) => toFieldsV1(s);

describe('FieldSet algebra', () => {
  const a = { 'f:spec': { 'f:a': {}, 'f:b': {}, 'f:l': { 'k:{"name":"x"}': { '.': {}, 'f:v': {} } } } };
  const b = { 'f:spec': { 'f:b': {}, 'f:c': {}, 'f:l': { 'k:{"name":"x"}': { 'f:v': {} } } } };
  const cases: { op: string; x: object; y: object; want: object }[] = [
    {
      op: 'union',
      x: a,
      y: b,
      want: {
        'f:spec': { 'f:a': {}, 'f:b': {}, 'f:c': {}, 'f:l': { 'k:{"name":"x"}': { '.': {}, 'f:v': {} } } },
      },
    },
    {
      op: 'intersection',
      x: a,
      y: b,
      want: { 'f:spec': { 'f:b': {}, 'f:l': { 'k:{"name":"x"}': { 'f:v': {} } } } },
    },
    { op: 'difference', x: a, y: b, want: { 'f:spec': { 'f:a': {}, 'f:l': { 'k:{"name":"x"}': {} } } } },
    { op: 'difference', x: b, y: a, want: { 'f:spec': { 'f:c': {} } } },
    // A member of y removes only that path from x, not the paths below it …
    {
      op: 'difference',
      x: { 'f:m': { '.': {}, 'f:k': {} } },
      y: { 'f:m': {} },
      want: { 'f:m': { 'f:k': {} } },
    },
    // … while the recursive difference removes everything below a member of y.
    {
      op: 'recursiveDifference',
      x: { 'f:m': { '.': {}, 'f:k': {} }, 'f:n': {} },
      y: { 'f:m': {} },
      want: { 'f:n': {} },
    },
    {
      op: 'recursiveDifference',
      x: a,
      y: { 'f:spec': { 'f:l': {} } },
      want: { 'f:spec': { 'f:a': {}, 'f:b': {} } },
    },
    { op: 'intersection', x: { 'f:a': {} }, y: { 'f:b': {} }, want: {} },
    { op: 'union', x: {}, y: {}, want: {} },
  ];
  it.each(cases)('$op of $x and $y', ({ op, x, y, want }) => {
    const sx = S(x);
    const sy = S(y);
    const r = (sx as unknown as Record<string, (o: FieldSet) => FieldSet>)[op]?.call(sx, sy) as FieldSet;
    expect(F(r)).toEqual(want);
    expect(r.equals(S(want))).toBe(true);
    // Inputs are values: never changed by an operation.
    expect(F(sx)).toEqual(F(S(x)));
    expect(F(sy)).toEqual(F(S(y)));
  });

  it('isSubsetOf agrees with an empty difference', () => {
    const pairs: [object, object][] = [
      [a, b],
      [b, a],
      [{ 'f:spec': { 'f:b': {} } }, b],
      [{ 'f:m': { '.': {}, 'f:k': {} } }, { 'f:m': { 'f:k': {} } }],
      [{ 'f:m': { 'f:k': {} } }, { 'f:m': { '.': {}, 'f:k': {} } }],
      [{}, a],
    ];
    for (const [x, y] of pairs) expect(S(x).isSubsetOf(S(y))).toBe(S(x).difference(S(y)).isEmpty());
    expect(S({ 'f:spec': { 'f:b': {} } }).isSubsetOf(S(b))).toBe(true);
    expect(S(a).isSubsetOf(S(b))).toBe(false);
  });

  it('leaves keeps the deepest members only', () => {
    expect(F(S({ 'f:m': { '.': {}, 'f:k': {} }, 'f:n': {} }).leaves())).toEqual({
      'f:m': { 'f:k': {} },
      'f:n': {},
    });
  });

  it('has, size, isEmpty, withPrefix', () => {
    const s = S(a);
    expect(s.has(makePath('spec', 'a'))).toBe(true);
    expect(s.has(makePath('spec'))).toBe(false);
    expect(s.has(makePath('spec', 'l', { name: 'x' }))).toBe(true);
    expect(s.has(makePath('spec', 'l', { name: 'y' }))).toBe(false);
    expect(s.size()).toBe(4);
    expect(S({}).isEmpty()).toBe(true);
    expect(F(s.withPrefix(PathElement.field('spec')).withPrefix(PathElement.field('l')))).toEqual({
      'k:{"name":"x"}': { '.': {}, 'f:v': {} },
    });
    expect(s.withPrefix(PathElement.field('nope')).isEmpty()).toBe(true);
  });

  it('equality ignores insertion order; inequality on member flags', () => {
    expect(FieldSet.of(makePath('b'), makePath('a')).equals(FieldSet.of(makePath('a'), makePath('b')))).toBe(
      true,
    );
    expect(S({ 'f:m': { '.': {}, 'f:k': {} } }).equals(S({ 'f:m': { 'f:k': {} } }))).toBe(false);
  });

  it('iterates members of a level before its children, each sorted as upstream', () => {
    const s = FieldSet.of(
      makePath('spec', 'z'),
      makePath('spec'),
      makePath('spec', 'l', PathElement.index(10)),
      makePath('spec', 'l', PathElement.index(9)),
      makePath('spec', 'l', PathElement.value('b')),
      makePath('spec', 'l', { name: 'b' }),
      makePath('spec', 'l', { name: 'a', port: 1 }),
      makePath('spec', 'l', 'f'),
      makePath('apiVersion'),
    );
    expect(s.paths().map(formatPath)).toEqual([
      '.apiVersion',
      '.spec',
      '.spec.z',
      '.spec.l.f',
      '.spec.l[name="b"]',
      '.spec.l[name="a",port=1]',
      '.spec.l[="b"]',
      '.spec.l[9]',
      '.spec.l[10]',
    ]);
  });
});

describe('path elements', () => {
  const cases: { pe: PathElement; id: string; text: string }[] = [
    { pe: PathElement.field('image'), id: 'f:image', text: '.image' },
    {
      pe: PathElement.key([
        { name: 'protocol', value: 'TCP' },
        { name: 'containerPort', value: 80 },
      ]),
      id: 'k:{"containerPort":80,"protocol":"TCP"}',
      text: '[containerPort=80,protocol="TCP"]',
    },
    { pe: PathElement.value('a<b'), id: 'v:"a\\u003cb"', text: '[="a<b"]' },
    { pe: PathElement.value(true), id: 'v:true', text: '[=true]' },
    { pe: PathElement.index(3), id: 'i:3', text: '[3]' },
  ];
  it.each(cases)('$id', ({ pe, id, text }) => {
    expect(pe.id).toBe(id);
    expect(pe.toString()).toBe(text);
    const back = PathElement.parse(id);
    expect(back?.id).toBe(id);
    expect(comparePathElements(back as PathElement, pe)).toBe(0);
  });

  it('orders fields < keys < values < indexes; keys by arity, then name, then value', () => {
    const order = [
      PathElement.field('a'),
      PathElement.field('b'),
      PathElement.key([{ name: 'n', value: 2 }]),
      PathElement.key([{ name: 'n', value: 'a' }]),
      PathElement.key([
        { name: 'a', value: 1 },
        { name: 'b', value: 1 },
      ]),
      PathElement.value(1.5),
      PathElement.value(2),
      PathElement.value('x'),
      PathElement.value(false),
      PathElement.value(null),
      PathElement.index(0),
    ];
    for (let i = 0; i + 1 < order.length; i++)
      expect(comparePathElements(order[i] as PathElement, order[i + 1] as PathElement)).toBe(-1);
  });

  it('skips unknown prefixes and rejects malformed keys', () => {
    expect(PathElement.parse('x:whatever')).toBeUndefined();
    expect(() => PathElement.parse('fx')).toThrow();
    expect(() => PathElement.parse('i:abc')).toThrow();
    expect(() => PathElement.parse('k:[1]')).toThrow();
  });
});

describe('FieldsV1 encoding', () => {
  const cases: { name: string; json: string }[] = [
    { name: 'leaves are empty objects', json: '{"f:data":{"f:a":{},"f:b":{}}}' },
    {
      name: 'an element that is a member and has children writes "."',
      json: '{"f:spec":{"f:l":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:name":{}}}}}',
    },
    {
      name: 'set values (numbers before strings) and indexes',
      json: '{"f:s":{"v:1":{},"v:\\"x\\"":{}},"f:t":{"i:0":{}}}',
    },
    { name: 'the empty set', json: '{}' },
  ];
  it.each(cases)('$name round-trips byte for byte', ({ json }) => {
    expect(encodeFieldsV1(decodeFieldsV1(json))).toBe(json);
    expect(JSON.stringify(toFieldsV1(fromFieldsV1(JSON.parse(json))))).toBe(json);
  });

  it('serializes in upstream order whatever the input order', () => {
    expect(encodeFieldsV1(decodeFieldsV1('{"f:b":{},"k:{\\"n\\":1}":{},"f:a":{},".":{}}'))).toBe(
      '{"f:a":{},"f:b":{},"k:{\\"n\\":1}":{}}',
    );
  });

  it('ignores unknown key prefixes, rejects non-objects', () => {
    expect(encodeFieldsV1(decodeFieldsV1('{"f:a":{},"z:b":{}}'))).toBe('{"f:a":{}}');
    expect(() => decodeFieldsV1('{"f:a":1}')).toThrow('value of f:a must be an object');
    expect(() => decodeFieldsV1('[')).toThrow('invalid fieldsV1 JSON');
    expect(() => fromFieldsV1([])).toThrow();
  });
});
