import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdentifier, newEcKeyPair } from './ec-keys.js';

describe('P-256 key pairs and their encodings', () => {
  // Several keys, so a coordinate with leading zero bytes (1 in 128 per key) is likely among them.
  const pairs = Array.from({ length: 64 }, () => newEcKeyPair());

  it('writes the SPKI and PKCS#8 bytes OpenSSL writes for the same key', () => {
    for (const k of pairs) {
      const publicKey = createPublicKey(k.privateKey);
      expect(k.spki.equals(publicKey.export({ type: 'spki', format: 'der' }))).toBe(true);
      expect(k.pkcs8.equals(k.privateKey.export({ type: 'pkcs8', format: 'der' }))).toBe(true);
      expect(k.publicKeyBits.equals(k.spki.subarray(-65))).toBe(true);
    }
  });

  it('gives back the same key when its encodings are read', () => {
    const k = pairs[0] as (typeof pairs)[number];
    const read = createPrivateKey({ key: k.pkcs8, format: 'der', type: 'pkcs8' });
    expect(read.equals(k.privateKey)).toBe(true);
    expect(createPublicKey({ key: k.spki, format: 'der', type: 'spki' }).asymmetricKeyDetails).toEqual({
      namedCurve: 'prime256v1',
    });
  });

  it('makes a fresh key every time', () => {
    expect(new Set(pairs.map((k) => k.pkcs8.toString('hex'))).size).toBe(pairs.length);
  });

  it('derives key identifiers as the SHA-1 of the public key bits', () => {
    const k = pairs[1] as (typeof pairs)[number];
    expect(keyIdentifier(k.publicKeyBits).equals(createHash('sha1').update(k.publicKeyBits).digest())).toBe(
      true,
    );
  });
});
