import type { StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch, createMergePatch } from './merge-patch.js';
import { applyStrategicMergePatch } from './strategic.js';
import { createThreeWayMergePatch, createTwoWayMergePatch } from './three-way.js';

// Every patch operation treats `__proto__`, `constructor` and `prototype` as ordinary keys: the
// result holds them as own properties and Object.prototype is never written.
const names = Object.getOwnPropertyNames(Object.prototype).sort();
const clean = () => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(names);
  expect('polluted' in {}).toBe(false);
};
const hostile = (): Record<string, unknown> =>
  JSON.parse('{"m":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}}');
const schema: StructuralSchema = {
  type: 'object',
  properties: {
    m: { type: 'object', additionalProperties: { type: 'object', 'x-preserve': true } as never },
  },
};

describe('patches never write through prototype-named keys', () => {
  it.each([
    ['merge patch', () => applyMergePatch({ m: { a: 1 } }, hostile())],
    ['strategic merge patch', () => applyStrategicMergePatch({ m: { a: 1 } }, hostile())],
    [
      'strategic merge patch with a schema',
      () => applyStrategicMergePatch({ m: { a: 1 } }, hostile(), schema),
    ],
    ['created merge patch', () => createMergePatch({ m: {} }, hostile())],
    ['two-way patch', () => createTwoWayMergePatch({ m: {} }, hostile())],
    ['three-way patch', () => createThreeWayMergePatch({ m: {} }, hostile(), { m: { b: 1 } })],
  ])('%s', (_name, run) => {
    const out = run() as { m: Record<string, unknown> };
    clean();
    expect(Object.hasOwn(out.m, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out.m, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(Object.getPrototypeOf(out.m)).toBe(Object.prototype);
  });

  it('JSON patch adds a __proto__ member as data', () => {
    const out = applyJsonPatch({ m: {} }, [
      { op: 'add', path: '/m/__proto__', value: { polluted: 1 } },
      { op: 'add', path: '/m/__proto__/more', value: 2 },
      { op: 'test', path: '/m/__proto__', value: { polluted: 1, more: 2 } },
    ]) as { m: Record<string, unknown> };
    clean();
    expect(Object.hasOwn(out.m, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out.m, '__proto__')?.value).toEqual({ polluted: 1, more: 2 });
  });

  it('JSON patch through a missing prototype-named member is the usual missing-path error', () => {
    expect(() =>
      applyJsonPatch({ m: {} }, [{ op: 'add', path: '/m/constructor/prototype/x', value: 1 }]),
    ).toThrow(/doc is missing path/);
    clean();
  });
});
