import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  aesCbcTransformer,
  aesGcmTransformer,
  identityTransformer,
  type KeyedProvider,
  keyTransformer,
  secretboxTransformer,
} from './providers.js';
import { createPrefixTransformers, isTransformError } from './value-transformer.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const plaintext = enc.encode('{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}');

function failure(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isTransformError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error('expected a TransformError');
}

describe.each([
  ['aesgcm', 16],
  ['aesgcm', 24],
  ['aesgcm', 32],
  ['aescbc', 16],
  ['aescbc', 24],
  ['aescbc', 32],
  ['secretbox', 32],
] as [KeyedProvider, number][])('%s with a %i-byte key', (provider, size) => {
  const secret = randomBytes(size);
  const t = keyTransformer(provider, secret);

  it('round-trips, hides the plaintext and uses a fresh nonce per write', () => {
    const a = t.toStorage(plaintext, '/core/secrets/ns/a');
    const b = t.toStorage(plaintext, '/core/secrets/ns/a');
    expect(Buffer.from(a).includes(Buffer.from('aHVudGVyMg=='))).toBe(false);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    const back = t.fromStorage(a, '/core/secrets/ns/a');
    expect(dec.decode(back.value)).toBe(dec.decode(plaintext));
    expect(back.stale).toBe(false);
    expect(dec.decode(t.fromStorage(t.toStorage(new Uint8Array(0), '/k'), '/k').value)).toBe('');
  });

  it('does not decrypt with another key', () => {
    const other = keyTransformer(provider, randomBytes(size));
    const stored = t.toStorage(plaintext, '/k');
    let readable: string | undefined;
    try {
      readable = dec.decode(other.fromStorage(stored, '/k').value);
    } catch (e) {
      expect(isTransformError(e)).toBe(true);
    }
    // CBC is not authenticated: a wrong key almost always fails the padding, never yields the plaintext.
    expect(readable).not.toBe(dec.decode(plaintext));
  });

  it('refuses truncated values with upstream messages', () => {
    expect(failure(() => t.fromStorage(new Uint8Array(3), '/k'))).toBe(
      'the stored data was shorter than the required size',
    );
  });
});

describe('provider specifics', () => {
  it('aesgcm binds the value to its key (a value moved under another key fails authentication)', () => {
    const t = aesGcmTransformer(randomBytes(32));
    const stored = t.toStorage(plaintext, '/core/secrets/a/x');
    expect(failure(() => t.fromStorage(stored, '/core/secrets/b/x'))).toBe(
      'cipher: message authentication failed',
    );
    const flipped = Uint8Array.from(stored);
    flipped[20] = (flipped[20] as number) ^ 1;
    expect(failure(() => t.fromStorage(flipped, '/core/secrets/a/x'))).toBe(
      'cipher: message authentication failed',
    );
  });

  it('aesgcm lays out nonce(12) || ciphertext || tag(16)', () => {
    expect(aesGcmTransformer(randomBytes(16)).toStorage(plaintext, '/k').byteLength).toBe(
      12 + plaintext.byteLength + 16,
    );
  });

  it('aescbc lays out iv(16) || padded ciphertext and names block-size errors', () => {
    const t = aesCbcTransformer(randomBytes(32));
    expect(t.toStorage(plaintext, '/k').byteLength).toBe(
      16 + (Math.floor(plaintext.byteLength / 16) + 1) * 16,
    );
    expect(failure(() => t.fromStorage(new Uint8Array(16 + 5), '/k'))).toBe(
      'the stored data is not a multiple of the block size',
    );
    expect(failure(() => t.fromStorage(new Uint8Array(16), '/k'))).toBe(
      'invalid PKCS7 data (empty or not padded)',
    );
  });

  it('secretbox lays out nonce(24) || tag(16) || ciphertext and rejects tampering', () => {
    const t = secretboxTransformer(randomBytes(32));
    const stored = t.toStorage(plaintext, '/k');
    expect(stored.byteLength).toBe(24 + 16 + plaintext.byteLength);
    const flipped = Uint8Array.from(stored);
    flipped[stored.byteLength - 1] = (flipped[stored.byteLength - 1] as number) ^ 1;
    expect(failure(() => t.fromStorage(flipped, '/k'))).toBe('attempted to decrypt an invalid value');
  });

  it('identity passes plaintext through and refuses encrypted values', () => {
    const t = identityTransformer();
    expect(t.toStorage(plaintext, '/k')).toBe(plaintext);
    expect(t.fromStorage(plaintext, '/k')).toEqual({ value: plaintext, stale: false });
    expect(failure(() => t.fromStorage(enc.encode('k8s:enc:aescbc:v1:key1:xxxx'), '/k'))).toBe(
      'identity transformer tried to read encrypted data',
    );
  });
});

describe('createPrefixTransformers (rotation by order)', () => {
  const k1 = aesGcmTransformer(randomBytes(32));
  const k2 = aesGcmTransformer(randomBytes(32));
  const p = (s: string) => enc.encode(s);

  it('writes with the first, reads with any, marks reads by a later one stale', () => {
    const old = createPrefixTransformers([{ prefix: p('key1:'), transformer: k1 }], 'no match');
    const rotated = createPrefixTransformers(
      [
        { prefix: p('key2:'), transformer: k2 },
        { prefix: p('key1:'), transformer: k1 },
      ],
      'no match',
    );
    const written = old.toStorage(plaintext, '/k');
    expect(dec.decode(written.subarray(0, 5))).toBe('key1:');
    const read = rotated.fromStorage(written, '/k');
    expect(dec.decode(read.value)).toBe(dec.decode(plaintext));
    expect(read.stale).toBe(true);
    const rewritten = rotated.toStorage(read.value, '/k');
    expect(dec.decode(rewritten.subarray(0, 5))).toBe('key2:');
    expect(rotated.fromStorage(rewritten, '/k').stale).toBe(false);
    expect(failure(() => old.fromStorage(rewritten, '/k'))).toBe('no match');
  });

  it('an identity entry that fails is skipped; a prefixed failure is reported', () => {
    const t = createPrefixTransformers(
      [
        { prefix: new Uint8Array(0), transformer: identityTransformer() },
        { prefix: p('key1:'), transformer: k1 },
      ],
      'no matching prefix found',
    );
    const encrypted = createPrefixTransformers([{ prefix: p('k8s:enc:x:'), transformer: k1 }], 'x').toStorage(
      plaintext,
      '/k',
    );
    expect(failure(() => t.fromStorage(encrypted, '/k'))).toBe('no matching prefix found');
    const bad = createPrefixTransformers([{ prefix: p('key1:'), transformer: k2 }], 'unused');
    expect(failure(() => bad.fromStorage(k1ed(), '/k'))).toBe('cipher: message authentication failed');
    function k1ed() {
      return createPrefixTransformers([{ prefix: p('key1:'), transformer: k1 }], 'x').toStorage(
        plaintext,
        '/k',
      );
    }
  });
});
