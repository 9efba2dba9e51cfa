import { describe, expect, it } from 'vitest';
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from './base64.js';

describe('base64', () => {
  it.each([
    ['', ''],
    ['f', 'Zg=='],
    ['fo', 'Zm8='],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg=='],
    ['日本', '5pel5pys'],
  ])('%j ↔ %s', (text, b64) => {
    const bytes = new TextEncoder().encode(text);
    expect(toBase64(bytes)).toBe(b64);
    expect(fromBase64(b64)).toEqual(bytes);
  });

  it('encodes values far larger than the argument limit of String.fromCharCode(...bytes)', () => {
    const bytes = new Uint8Array(512 * 1024).map((_, i) => (i * 31) & 0xff);
    const s = toBase64(bytes);
    expect(s.length).toBe(Math.ceil(bytes.length / 3) * 4);
    const back = fromBase64(s);
    // Compared natively: a deep toEqual over half a million elements takes seconds.
    expect(back && Buffer.from(back).equals(Buffer.from(bytes))).toBe(true);
  });

  it('base64url has no padding and no + or /', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xfe]);
    expect(toBase64Url(bytes)).toBe('-__-');
    expect(fromBase64Url('-__-')).toEqual(bytes);
    expect(fromBase64Url('+//+')).toBeUndefined();
    expect(fromBase64('not base64!')).toBeUndefined();
  });
});
