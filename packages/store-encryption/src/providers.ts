import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretbox } from '@noble/ciphers/salsa.js';
import { TransformError, type ValueTransformer } from './value-transformer.js';

/** The prefix every encrypted value starts with; identity refuses to read values that carry it. */
export const encryptedValuePrefix = 'k8s:enc:';

/** The providers that take keys, with their value prefixes (upstream's, so stored values are interchangeable). */
export const keyedProviderPrefixes = Object.freeze({
  aesgcm: 'k8s:enc:aesgcm:v1:',
  aescbc: 'k8s:enc:aescbc:v1:',
  secretbox: 'k8s:enc:secretbox:v1:',
} as const);

/** A provider that takes keys. */
export type KeyedProvider = keyof typeof keyedProviderPrefixes;

/** Key lengths in bytes each keyed provider accepts (AES-128/192/256; XSalsa20 takes 32). */
export const providerKeySizes: Readonly<Record<KeyedProvider, readonly number[]>> = Object.freeze({
  aesgcm: [16, 24, 32],
  aescbc: [16, 24, 32],
  secretbox: [32],
});

const shortData = 'the stored data was shorter than the required size';
const encryptedPrefixBytes = new TextEncoder().encode(encryptedValuePrefix);

/**
 * Identity that refuses encrypted data (upstream's encrypt-check identity): writes plaintext, and a
 * stored value starting with `k8s:enc:` is an error, so it never hands ciphertext up as an object.
 */
export function identityTransformer(): ValueTransformer {
  return {
    toStorage: (value) => value,
    fromStorage(stored) {
      if (
        stored.byteLength >= encryptedPrefixBytes.byteLength &&
        encryptedPrefixBytes.every((b, i) => stored[i] === b)
      )
        throw new TransformError('identity transformer tried to read encrypted data');
      return { value: stored, stale: false };
    },
  };
}

const gcmNonceBytes = 12;
const gcmTagBytes = 16;

/**
 * AES-GCM (node:crypto): `nonce(12) || ciphertext || tag(16)`, the store key as additional
 * authenticated data, a random nonce per write (as upstream: keys must be rotated well before 2^32
 * writes per key).
 */
export function aesGcmTransformer(secret: Uint8Array): ValueTransformer {
  const algorithm = `aes-${secret.byteLength * 8}-gcm` as 'aes-256-gcm';
  return {
    toStorage(value, key) {
      const nonce = randomBytes(gcmNonceBytes);
      const c = createCipheriv(algorithm, secret, nonce);
      c.setAAD(Buffer.from(key, 'utf8'));
      const body = c.update(value);
      const tail = c.final();
      return Buffer.concat([nonce, body, tail, c.getAuthTag()]);
    },
    fromStorage(stored, key) {
      if (stored.byteLength < gcmNonceBytes) throw new TransformError(shortData);
      if (stored.byteLength < gcmNonceBytes + gcmTagBytes)
        throw new TransformError('cipher: message authentication failed');
      const d = createDecipheriv(algorithm, secret, stored.subarray(0, gcmNonceBytes));
      d.setAAD(Buffer.from(key, 'utf8'));
      d.setAuthTag(stored.subarray(stored.byteLength - gcmTagBytes));
      try {
        const body = d.update(stored.subarray(gcmNonceBytes, stored.byteLength - gcmTagBytes));
        return { value: Buffer.concat([body, d.final()]), stale: false };
      } catch {
        throw new TransformError('cipher: message authentication failed');
      }
    },
  };
}

const cbcBlockBytes = 16;

/**
 * AES-CBC with PKCS#7 padding (node:crypto): `iv(16) || ciphertext`. Not authenticated: a wrong key
 * usually fails on the padding, and otherwise yields bytes that do not decode (upstream recommends
 * aesgcm or secretbox over it for the same reason).
 */
export function aesCbcTransformer(secret: Uint8Array): ValueTransformer {
  const algorithm = `aes-${secret.byteLength * 8}-cbc` as 'aes-256-cbc';
  return {
    toStorage(value) {
      const iv = randomBytes(cbcBlockBytes);
      const c = createCipheriv(algorithm, secret, iv);
      return Buffer.concat([iv, c.update(value), c.final()]);
    },
    fromStorage(stored) {
      if (stored.byteLength < cbcBlockBytes) throw new TransformError(shortData);
      const body = stored.subarray(cbcBlockBytes);
      if (body.byteLength % cbcBlockBytes !== 0)
        throw new TransformError('the stored data is not a multiple of the block size');
      if (body.byteLength === 0) throw new TransformError('invalid PKCS7 data (empty or not padded)');
      const d = createDecipheriv(algorithm, secret, stored.subarray(0, cbcBlockBytes));
      try {
        return { value: Buffer.concat([d.update(body), d.final()]), stale: false };
      } catch {
        throw new TransformError('invalid padding on input');
      }
    },
  };
}

const secretboxNonceBytes = 24;
const secretboxTagBytes = 16;

/**
 * NaCl secretbox (XSalsa20-Poly1305) from @noble/ciphers: `nonce(24) || tag(16) || ciphertext`,
 * the layout of Go's `nacl/secretbox` that upstream uses. node:crypto has no XSalsa20.
 */
export function secretboxTransformer(secret: Uint8Array): ValueTransformer {
  const key = Uint8Array.from(secret);
  return {
    toStorage(value) {
      const nonce = randomBytes(secretboxNonceBytes);
      const sealed = secretbox(key, nonce).seal(value);
      const out = new Uint8Array(secretboxNonceBytes + sealed.byteLength);
      out.set(nonce, 0);
      out.set(sealed, secretboxNonceBytes);
      return out;
    },
    fromStorage(stored) {
      if (stored.byteLength < secretboxNonceBytes + secretboxTagBytes) throw new TransformError(shortData);
      const nonce = stored.slice(0, secretboxNonceBytes);
      try {
        return { value: secretbox(key, nonce).open(stored.subarray(secretboxNonceBytes)), stale: false };
      } catch {
        throw new TransformError('attempted to decrypt an invalid value');
      }
    },
  };
}

/** The transformer of one keyed provider with one key's secret. */
export function keyTransformer(provider: KeyedProvider, secret: Uint8Array): ValueTransformer {
  switch (provider) {
    case 'aesgcm':
      return aesGcmTransformer(secret);
    case 'aescbc':
      return aesCbcTransformer(secret);
    case 'secretbox':
      return secretboxTransformer(secret);
  }
}
