import { generateKeyPairSync, hash, type KeyObject } from 'node:crypto';

/**
 * P-256 key pairs for the generated certificates, with the two encodings a certificate and its key
 * file need: the SubjectPublicKeyInfo (in the certificate) and the PKCS#8 PrivateKeyInfo (the PEM
 * key). Both are fixed layouts around the key's numbers for this one curve, so they are put
 * together here from the key's JWK export (`d`, `x`, `y`, which `node:crypto` writes without going
 * through OpenSSL's encoders) rather than by two OpenSSL exports per key: on a process's first start
 * the first OpenSSL export costs ~0.7 ms and each later one ~0.2 ms, the JWK export ~0.15 ms.
 * The bytes are the ones OpenSSL writes (uncompressed point, named curve, the public key inside the
 * PKCS#8 key): `ec-keys.test.ts` compares them with `KeyObject.export` for fresh keys.
 */

/** AlgorithmIdentifier { id-ecPublicKey, prime256v1 }, DER. */
const p256Algorithm = '301306072a8648ce3d020106082a8648ce3d030107';
/** SEQUENCE { algorithm, BIT STRING (no unused bits) { 04 (uncompressed point) … } }: x and y follow. */
const spkiPrefix = Buffer.from(`3059${p256Algorithm}03420004`, 'hex');
/**
 * PrivateKeyInfo { version 0, algorithm, OCTET STRING { ECPrivateKey { version 1, OCTET STRING d
 * … } } }: the 32 bytes of `d` follow.
 */
const pkcs8Prefix = Buffer.from(`308187020100${p256Algorithm}046d306b0201010420`, 'hex');
/** ECPrivateKey's `[1] publicKey BIT STRING { 04 … }`: x and y follow. */
const pkcs8PublicKey = Buffer.from('a14403420004', 'hex');

/** A P-256 key pair and its encodings. */
export interface EcKeyPair {
  readonly privateKey: KeyObject;
  /** SubjectPublicKeyInfo, DER. */
  readonly spki: Buffer;
  /** The public key bits (`04 ‖ x ‖ y`), what a key identifier is a hash of. */
  readonly publicKeyBits: Buffer;
  /** PKCS#8 PrivateKeyInfo, DER (as OpenSSL writes an EC key: named curve, public key included). */
  readonly pkcs8: Buffer;
}

/** A JWK coordinate as its fixed-size big-endian bytes (Node pads `d`, `x`, `y` to the field size). */
function coordinate(jwk: { [k: string]: unknown }, name: 'd' | 'x' | 'y'): Buffer {
  const v = jwk[name];
  const b = typeof v === 'string' ? Buffer.from(v, 'base64url') : undefined;
  if (b?.length !== 32) throw new Error(`P-256 key: the JWK export has no 32-byte ${name}`);
  return b;
}

/**
 * A new P-256 key pair. Generated synchronously: three keys take ~0.9 ms on a process's first start,
 * against ~2–3 ms for the same three on libuv's pool and back (nothing else runs meanwhile).
 */
export function newEcKeyPair(): EcKeyPair {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const x = coordinate(jwk, 'x');
  const y = coordinate(jwk, 'y');
  return {
    privateKey,
    spki: Buffer.concat([spkiPrefix, x, y]),
    publicKeyBits: Buffer.concat([Buffer.of(4), x, y]),
    pkcs8: Buffer.concat([pkcs8Prefix, coordinate(jwk, 'd'), pkcs8PublicKey, x, y]),
  };
}

/**
 * A key identifier: the SHA-1 of the public key bits (RFC 5280 §4.2.1.2 method 1, as Go's x509
 * derives it). The one-shot `hash` costs less than a `Hash` object on first use (~0.3 against ~0.7 ms).
 */
export function keyIdentifier(publicKeyBits: Uint8Array): Buffer {
  return hash('sha1', publicKeyBits, 'buffer');
}
