import { orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { isCodecError } from './codec.js';
import { jsonCodec } from './json.js';
import { yamlCodec } from './yaml.js';

const ctx = { flavor: orchFlavor };
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isCodecError(e) ? e.code : 'other';
  }
  return undefined;
}

describe('jsonCodec', () => {
  it('round-trips an object', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'ü' } };
    expect(jsonCodec.decode(jsonCodec.encode(obj, ctx), ctx)).toEqual(obj);
  });
  it.each(['{', '{"a":}', '', '\u00ff'])('rejects malformed %j', (text) => {
    expect(codeOf(() => jsonCodec.decode(enc(text), ctx))).toBe('Malformed');
  });
  it('rejects invalid UTF-8', () => {
    expect(codeOf(() => jsonCodec.decode(new Uint8Array([0x7b, 0xff, 0x7d]), ctx))).toBe('Malformed');
  });
  it('frames watch events one per line', () => {
    const line = dec(
      jsonCodec.stream?.encodeEvent({ type: 'ADDED', object: { a: 1 } }, ctx) ?? new Uint8Array(),
    );
    expect(line).toBe('{"type":"ADDED","object":{"a":1}}\n');
  });
});

describe('yamlCodec', () => {
  it('decodes YAML and JSON alike', () => {
    expect(yamlCodec.decode(enc('kind: ConfigMap\ndata:\n  a: "1"\n  b: yes\n'), ctx)).toEqual({
      kind: 'ConfigMap',
      data: { a: '1', b: 'yes' },
    });
    expect(yamlCodec.decode(enc('{"kind":"ConfigMap"}'), ctx)).toEqual({ kind: 'ConfigMap' });
  });
  it.each([
    ['unbalanced', 'a: [1, 2'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['bad indentation', 'a:\n  b: 1\n c: 2\n'],
  ])('rejects %s', (_why, text) => {
    expect(codeOf(() => yamlCodec.decode(enc(text), ctx))).toBe('Malformed');
  });
  it('encodes to YAML that decodes back', () => {
    const obj = { metadata: { name: 'x', labels: { a: 'true' } }, data: { n: '007' } };
    const text = dec(yamlCodec.encode(obj, ctx));
    expect(text).toContain('name: x');
    expect(yamlCodec.decode(enc(text), ctx)).toEqual(obj);
  });
});
