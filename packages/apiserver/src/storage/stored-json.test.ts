import { describe, expect, it } from 'vitest';
import { metadataEnd, withResourceVersion } from './stored-json.js';

/** What the server did before: parse, then assign the version (the bytes it must still produce). */
function assigned(text: string, rv: string): string {
  const o = JSON.parse(text) as { metadata: Record<string, unknown> };
  o.metadata.resourceVersion = rv;
  return JSON.stringify(o);
}

describe('withResourceVersion', () => {
  const texts = [
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default"},"data":{"k":"v"}}',
    '{"metadata":{}}',
    '{ "metadata" : { } , "data" : { } }',
    '\n{\n  "kind": "X",\n  "metadata": {\n    "name": "a"\n  }\n}\n',
    '{"metadata":{"resourceVersion":"7","name":"a"},"spec":{}}',
    // Strings holding what looks like structure, escaped quotes and backslashes.
    '{"data":{"x":"\\"metadata\\":{\\"a\\":1}}","y":"}]{[","z":"\\\\"},"metadata":{"name":"q\\"}{","labels":{"a":"}"}}}',
    // A nested `metadata` key is not the object's.
    '{"spec":{"template":{"metadata":{"name":"inner"}}},"metadata":{"name":"outer"}}',
    '{"items":[{"metadata":{}}],"metadata":{"annotations":{"metadata":"{"}}}',
    '{"metadata":{"managedFields":[{"fieldsV1":{"f:metadata":{"f:labels":{}}}}],"name":"m"}}',
  ];
  it('gives the bytes that assigning after parsing gave', () => {
    for (const t of texts) {
      const injected = withResourceVersion(t, '12345');
      expect(injected, t).toBeDefined();
      expect(JSON.stringify(JSON.parse(injected as string)), t).toBe(assigned(t, '12345'));
    }
  });

  it('finds the closing brace of the top-level metadata only', () => {
    const t = '{"spec":{"metadata":{}},"metadata":{"name":"a"}}';
    expect(t[metadataEnd(t)]).toBe('}');
    expect(metadataEnd(t)).toBe(t.length - 2);
  });

  it('declines what it cannot place, for the caller to assign after parsing', () => {
    for (const t of [
      '[]',
      '"metadata"',
      '{"kind":"metadata"}',
      '{"metadata":null}',
      '{"metadata":[]}',
      '{"metadata":"x"}',
      '{"metad\\u0061ta":{}}',
      '{"metadata":{"name":"unterminated}',
      '{"metadata":{"a":{}',
      '',
      '{"a":"\\"}',
    ]) {
      expect(withResourceVersion(t, '1'), t).toBeUndefined();
    }
  });

  it('puts the version into the first of repeated metadata members (JSON.parse keeps the last: the caller checks)', () => {
    const t = '{"metadata":{"name":"a"},"metadata":{"name":"b"}}';
    const parsed = JSON.parse(withResourceVersion(t, '3') as string) as { metadata: Record<string, unknown> };
    expect(parsed.metadata).toEqual({ name: 'b' });
  });
});
