import { describe, expect, it } from 'vitest';
import type { FieldSet } from '../fieldpath/field-set.js';
import { fromFieldsV1, toFieldsV1 } from '../fieldpath/fields-v1.js';
import { widgetSchema } from '../testing/fixtures.js';
import { atomOf, deducedAtom } from './atom.js';
import { compare } from './compare.js';
import { merge } from './merge.js';
import { removeItems } from './remove.js';
import { toFieldSet } from './to-field-set.js';

const widget = atomOf(widgetSchema);
const spec = (s: object) => ({ spec: s });

describe('toFieldSet (upstream TypedValue.ToFieldSet)', () => {
  const cases: { name: string; value: unknown; want: object; deduced?: true }[] = [
    {
      name: 'scalars are leaves; a non-empty struct field is not a member',
      value: spec({ image: 'x', replicas: 2 }),
      want: { 'f:spec': { 'f:image': {}, 'f:replicas': {} } },
    },
    {
      name: 'an empty struct and a null are members',
      value: { spec: {}, status: null },
      want: { 'f:spec': {}, 'f:status': {} },
    },
    {
      name: 'map keys are members (granular map)',
      value: { data: { a: '1', b: '2' } },
      want: { 'f:data': { 'f:a': {}, 'f:b': {} } },
    },
    {
      name: 'an unmarked list is atomic: one leaf',
      value: spec({ args: ['a', 'b'] }),
      want: { 'f:spec': { 'f:args': {} } },
    },
    {
      name: 'set elements are v: members',
      value: spec({ tags: ['b', 'a'] }),
      want: { 'f:spec': { 'f:tags': { 'v:"a"': {}, 'v:"b"': {} } } },
    },
    {
      name: 'list-map items are k: members with their fields; a defaulted key fills in',
      value: spec({ ports: [{ containerPort: 80, name: 'http' }] }),
      want: {
        'f:spec': {
          'f:ports': {
            'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} },
          },
        },
      },
    },
    {
      name: 'an atomic struct ends at the struct',
      value: spec({ selector: { matchLabels: { a: 'b' } } }),
      want: { 'f:spec': { 'f:selector': {} } },
    },
    {
      name: 'preserve-unknown-fields values are deduced: maps granular, lists atomic',
      value: spec({ config: { a: { b: 1 }, l: [1, 2] } }),
      want: { 'f:spec': { 'f:config': { 'f:a': { '.': {}, 'f:b': {} }, 'f:l': {} } } },
    },
    {
      name: 'int-or-string values are leaves',
      value: spec({ resources: { cpu: '1', memory: 2 } }),
      want: { 'f:spec': { 'f:resources': { 'f:cpu': {}, 'f:memory': {} } } },
    },
    {
      name: 'no schema: everything deduced',
      value: { a: { b: [1] } },
      want: { 'f:a': { '.': {}, 'f:b': {} } },
      deduced: true,
    },
  ];
  it.each(cases)('$name', ({ value, want, deduced }) => {
    const atom = deduced ? deducedAtom : widget;
    expect(toFieldsV1(toFieldSet(value, atom))).toEqual(want);
  });

  it('rejects list-map items without keys and duplicate keys', () => {
    expect(() => toFieldSet(spec({ containers: [{ image: 'x' }] }), widget)).toThrow(
      '.spec.containers: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
    expect(() => toFieldSet(spec({ containers: [{ name: 'a' }, { name: 'a' }] }), widget)).toThrow(
      'duplicate entries for key [name="a"]',
    );
    expect(() => toFieldSet(spec({ tags: [{ a: 1 }] }), widget)).toThrow(
      "associative list without keys has an element that's a map type",
    );
  });
});

describe('compare (upstream TypedValue.Compare)', () => {
  const cases: { name: string; l: unknown; r: unknown; modified: object; added: object; removed: object }[] =
    [
      {
        name: 'changed scalar',
        l: spec({ image: 'a' }),
        r: spec({ image: 'b' }),
        modified: { 'f:spec': { 'f:image': {} } },
        added: {},
        removed: {},
      },
      {
        name: 'added struct: the struct and its leaves',
        l: {},
        r: spec({ image: 'a' }),
        modified: {},
        added: { 'f:spec': { '.': {}, 'f:image': {} } },
        removed: {},
      },
      {
        name: 'removed map key',
        l: { data: { a: '1', b: '2' } },
        r: { data: { a: '1' } },
        modified: {},
        added: {},
        removed: { 'f:data': { 'f:b': {} } },
      },
      {
        name: 'atomic list compared whole',
        l: spec({ args: ['a'] }),
        r: spec({ args: ['a', 'b'] }),
        modified: { 'f:spec': { 'f:args': {} } },
        added: {},
        removed: {},
      },
      {
        name: 'list-map items matched by key, not position',
        l: spec({
          containers: [
            { name: 'a', image: '1' },
            { name: 'b', image: '1' },
          ],
        }),
        r: spec({ containers: [{ name: 'b', image: '2' }, { name: 'a', image: '1' }, { name: 'c' }] }),
        modified: { 'f:spec': { 'f:containers': { 'k:{"name":"b"}': { 'f:image': {} } } } },
        added: { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {} } } } },
        removed: {},
      },
      {
        name: 'empty and null containers compare as leaves',
        l: { spec: {} },
        r: { spec: null },
        modified: { 'f:spec': {} },
        added: {},
        removed: {},
      },
      {
        name: 'set element removed',
        l: spec({ tags: ['a', 'b'] }),
        r: spec({ tags: ['a'] }),
        modified: {},
        added: {},
        removed: { 'f:spec': { 'f:tags': { 'v:"b"': {} } } },
      },
      {
        name: 'no change',
        l: spec({ image: 'a', tags: ['x'] }),
        r: spec({ tags: ['x'], image: 'a' }),
        modified: {},
        added: {},
        removed: {},
      },
    ];
  it.each(cases)('$name', ({ l, r, modified, added, removed }) => {
    const c = compare(l, r, widget);
    expect([toFieldsV1(c.modified), toFieldsV1(c.added), toFieldsV1(c.removed)]).toEqual([
      modified,
      added,
      removed,
    ]);
  });
});

describe('merge (upstream TypedValue.Merge: intent wins)', () => {
  const cases: { name: string; live: unknown; intent: unknown; want: unknown }[] = [
    {
      name: 'scalars: intent wins, live-only kept',
      live: spec({ image: 'a', color: 'red' }),
      intent: spec({ image: 'b' }),
      want: spec({ image: 'b', color: 'red' }),
    },
    {
      name: 'granular map merged key by key',
      live: { data: { a: '1', b: '2' } },
      intent: { data: { b: '3', c: '4' } },
      want: { data: { a: '1', b: '3', c: '4' } },
    },
    {
      name: 'atomic list replaced',
      live: spec({ args: ['a', 'b'] }),
      intent: spec({ args: ['c'] }),
      want: spec({ args: ['c'] }),
    },
    {
      name: 'atomic struct replaced',
      live: spec({ selector: { matchLabels: { a: '1', b: '2' } } }),
      intent: spec({ selector: { matchLabels: { c: '3' } } }),
      want: spec({ selector: { matchLabels: { c: '3' } } }),
    },
    {
      name: 'list-map: live order kept, items merged by key, new items appended',
      live: spec({
        containers: [
          { name: 'a', image: '1' },
          { name: 'b', image: '1', env: [{ name: 'X', value: '1' }] },
        ],
      }),
      intent: spec({
        containers: [
          { name: 'c', image: '3' },
          { name: 'b', env: [{ name: 'Y', value: '2' }] },
        ],
      }),
      want: spec({
        containers: [
          { name: 'a', image: '1' },
          {
            name: 'b',
            image: '1',
            env: [
              { name: 'X', value: '1' },
              { name: 'Y', value: '2' },
            ],
          },
          { name: 'c', image: '3' },
        ],
      }),
    },
    {
      name: 'sets: union in live order then new',
      live: spec({ tags: ['b', 'a'] }),
      intent: spec({ tags: ['c', 'a'] }),
      want: spec({ tags: ['b', 'a', 'c'] }),
    },
    {
      name: 'null for a granular struct keeps the live content',
      live: spec({ template: { note: 'n' } }),
      intent: spec({ template: null }),
      want: spec({ template: { note: 'n' } }),
    },
    { name: 'onto nothing', live: {}, intent: spec({ image: 'x' }), want: spec({ image: 'x' }) },
  ];
  it.each(cases)('$name', ({ live, intent, want }) => {
    const liveCopy = structuredClone(live);
    expect(merge(live, intent, widget)).toEqual(want);
    expect(live).toEqual(liveCopy);
  });

  it('rejects duplicate keys in the intent', () => {
    expect(() => merge({}, spec({ containers: [{ name: 'a' }, { name: 'a' }] }), widget)).toThrow(
      'duplicate entries for key [name="a"]',
    );
  });
});

describe('removeItems (upstream TypedValue.RemoveItems)', () => {
  const cases: { name: string; value: unknown; items: object; want: unknown }[] = [
    {
      name: 'a member removes the field',
      value: spec({ image: 'a', color: 'b' }),
      items: { 'f:spec': { 'f:image': {} } },
      want: spec({ color: 'b' }),
    },
    {
      name: 'a member with children removes the whole subtree',
      value: spec({ template: { note: 'n', labels: { a: '1' } }, color: 'b' }),
      items: { 'f:spec': { 'f:template': {} } },
      want: spec({ color: 'b' }),
    },
    {
      name: 'list-map item by key, other items kept in order',
      value: spec({ containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }),
      items: { 'f:spec': { 'f:containers': { 'k:{"name":"b"}': {} } } },
      want: spec({ containers: [{ name: 'a' }, { name: 'c' }] }),
    },
    {
      name: 'set element',
      value: spec({ tags: ['a', 'b'] }),
      items: { 'f:spec': { 'f:tags': { 'v:"a"': {} } } },
      want: spec({ tags: ['b'] }),
    },
    {
      name: 'a container emptied by the removal becomes null, as upstream',
      value: { data: { a: '1' }, spec: { color: 'x' } },
      items: { 'f:data': { 'f:a': {} } },
      want: { data: null, spec: { color: 'x' } },
    },
    {
      name: 'atomic values are not entered',
      value: spec({ selector: { matchLabels: { a: '1' } } }),
      items: { 'f:spec': { 'f:selector': { 'f:matchLabels': {} } } },
      want: spec({ selector: { matchLabels: { a: '1' } } }),
    },
    { name: 'nothing to remove', value: spec({ image: 'a' }), items: {}, want: spec({ image: 'a' }) },
  ];
  it.each(cases)('$name', ({ value, items, want }) => {
    const set: FieldSet = fromFieldsV1(items);
    expect(removeItems(value, set, widget)).toEqual(want);
  });
});

describe('field names from request bodies', () => {
  it('a __proto__ key is an ordinary field: merged, tracked and removed as such', () => {
    const intent = JSON.parse('{"spec":{"config":{"__proto__":{"x":"1"},"a":"b"}}}');
    const merged = merge({ spec: { config: { c: 'd' } } }, intent, widget) as {
      spec: { config: Record<string, unknown> };
    };
    expect(Object.hasOwn(merged.spec.config, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(merged.spec.config)).toBe(Object.prototype);
    expect(JSON.stringify(merged)).toBe('{"spec":{"config":{"c":"d","__proto__":{"x":"1"},"a":"b"}}}');
    expect(toFieldsV1(toFieldSet(intent, widget))).toEqual(
      JSON.parse('{"f:spec":{"f:config":{"f:__proto__":{".":{},"f:x":{}},"f:a":{}}}}'),
    );
    const removed = removeItems(
      merged,
      fromFieldsV1(JSON.parse('{"f:spec":{"f:config":{"f:a":{}}}}')),
      widget,
    );
    expect(JSON.stringify(removed)).toBe('{"spec":{"config":{"c":"d","__proto__":{"x":"1"}}}}');
  });
});
