import { describe, expect, it } from 'vitest';
import { jsonPatchSuiteCases } from '../test/json-patch-suite.js';
import { isPatchError } from './errors.js';
import { applyJsonPatch, parseJsonPatchText } from './json-patch.js';
import { knownFailures } from './json-patch-known-failures.js';

describe('json-patch-test-suite', () => {
  const all = jsonPatchSuiteCases();
  it('has the expected size', () => {
    expect(all.length).toBe(95);
  });
  // Each case goes through the raw text, as a PATCH body would.
  it.each(all.map((c) => [c.id, c] as const))('%s', (id, c) => {
    const run = () => applyJsonPatch(c.doc, parseJsonPatchText(c.patchText));
    const known = knownFailures[id];
    if (known) {
      // A known failure must really still fail, or the list is stale.
      let ok: boolean;
      try {
        const out = run();
        ok = c.error === undefined && JSON.stringify(out) === JSON.stringify(c.expected);
      } catch {
        ok = c.error !== undefined;
      }
      expect(ok, `known failure ${id} now passes: remove it from the list`).toBe(false);
      return;
    }
    if (c.error !== undefined) {
      let thrown: unknown;
      try {
        run();
      } catch (e) {
        thrown = e;
      }
      expect(isPatchError(thrown), `expected a PatchError: ${c.error}`).toBe(true);
    } else if (c.expected !== undefined) {
      expect(run()).toEqual(c.expected);
    } else {
      expect(() => run()).not.toThrow();
    }
  });
});

describe('applyJsonPatch', () => {
  it('does not mutate its input', () => {
    const doc = { a: { b: 1 } };
    applyJsonPatch(doc, [{ op: 'replace', path: '/a/b', value: 2 }]);
    expect(doc).toEqual({ a: { b: 1 } });
  });
  const errorCases: [string, unknown, unknown, string, string][] = [
    [
      'failing test',
      { a: 1 },
      [{ op: 'test', path: '/a', value: 2 }],
      'TestFailed',
      'testing value /a failed: test failed',
    ],
    [
      'missing path',
      { a: 1 },
      [{ op: 'replace', path: '/b', value: 2 }],
      'Unprocessable',
      'replace operation does not apply: doc is missing path: "/b": missing value',
    ],
    [
      'remove missing',
      { a: 1 },
      [{ op: 'remove', path: '/b' }],
      'Unprocessable',
      'Unable to remove nonexistent key: b: missing value',
    ],
    [
      'not a list',
      { a: 1 },
      { op: 'add' },
      'Malformed',
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ],
    ['unknown op', { a: 1 }, [{ op: 'frob', path: '/a' }], 'Unprocessable', 'Unexpected kind: frob'],
    [
      'missing value',
      { a: 1 },
      [{ op: 'add', path: '/b' }],
      'Unprocessable',
      'operation missing value field: add',
    ],
  ];
  it.each(errorCases)('%s', (_n, doc, patch, code, message) => {
    try {
      applyJsonPatch(doc, patch);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code, message });
    }
  });
  it('limits the operation count', () => {
    const patch = Array.from({ length: 3 }, () => ({ op: 'test', path: '/a', value: 1 }));
    expect(() => applyJsonPatch({ a: 1 }, patch, { maxOperations: 2 })).toThrow(/maximum operations/);
  });
});

describe('parseJsonPatchText', () => {
  const cases: [string, string, RegExp | undefined][] = [
    [
      'two op members',
      '[{"op":"add","path":"/a","value":1,"op":"remove"}]',
      /operation 0 has two "op" members/,
    ],
    [
      'two path members in the second op',
      '[{"op":"test","path":"/a","value":1},{"op":"remove","path":"/a","path":"/b"}]',
      /operation 1 has two "path" members/,
    ],
    ['a repeated key inside a value is fine', '[{"op":"add","path":"/a","value":{"x":1,"x":2}}]', undefined],
    ['malformed JSON', '[{"op":', /invalid JSON patch/],
  ];
  it.each(cases)('%s', (_n, text, error) => {
    if (error) expect(() => parseJsonPatchText(text)).toThrow(error);
    else expect(parseJsonPatchText(text)).toEqual([{ op: 'add', path: '/a', value: { x: 2 } }]);
  });
});
