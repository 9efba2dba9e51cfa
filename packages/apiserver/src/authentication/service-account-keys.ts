import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import type { PinnedKey } from '@orchard/authn';

/** The one JWS algorithm a key may be used with: RSA → RS256, EC by curve (algorithm pinning). */
function algorithmOf(key: KeyObject, source: string): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    throw new Error(`${source}: unsupported EC curve ${String(curve)} (P-256, P-384 or P-521)`);
  }
  throw new Error(`${source}: unsupported key type ${String(key.asymmetricKeyType)} (RSA or ECDSA)`);
}

/** Upstream's key id: base64url SHA-256 of the public key's DER (SubjectPublicKeyInfo). */
function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

/** The line (1-based) a PEM block starts on, for error messages. */
function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/**
 * `--service-account-key-file`: every public key, private key (its public half) or certificate in a
 * PEM file, each pinned to its algorithm. Errors name the file and the block's line.
 */
export function parseServiceAccountVerificationKeys(pem: string, source: string): PinnedKey[] {
  const keys: PinnedKey[] = [];
  const re = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;
  for (const m of pem.matchAll(re)) {
    const where = `${source}:${lineOf(pem, m.index ?? 0)}`;
    const label = m[1] as string;
    let key: KeyObject;
    try {
      key = createPublicKey(m[0]);
    } catch (e) {
      throw new Error(`${where}: cannot read the ${label}: ${(e as Error).message}`);
    }
    keys.push({ key, alg: algorithmOf(key, where), kid: keyIdOf(key) });
  }
  if (keys.length === 0) throw new Error(`${source}: no PEM public key, private key or certificate found`);
  return keys;
}

/** `--service-account-signing-key-file`: exactly one private key (PEM), pinned to its algorithm. */
export function parseServiceAccountSigningKey(pem: string, source: string): PinnedKey {
  const re = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----[\s\S]*?-----END \1-----/g;
  const blocks = [...pem.matchAll(re)];
  if (blocks.length === 0) throw new Error(`${source}: no PEM private key found`);
  const first = blocks[0] as RegExpMatchArray;
  const where = `${source}:${lineOf(pem, first.index ?? 0)}`;
  let key: KeyObject;
  try {
    key = createPrivateKey(first[0]);
  } catch (e) {
    throw new Error(`${where}: cannot read the private key: ${(e as Error).message}`);
  }
  return { key, alg: algorithmOf(key, where), kid: keyIdOf(createPublicKey(key)) };
}

/** A new ECDSA P-256 signing key as PKCS#8 PEM (what the CLI writes when no key file is given). */
export function generateServiceAccountSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** The verification key of a signing key (the signer's own tokens verify without a key file). */
export function verificationKeyOf(signing: PinnedKey): PinnedKey {
  const pub = createPublicKey(signing.key as KeyObject);
  return { key: pub, alg: signing.alg, ...(signing.kid ? { kid: signing.kid } : {}) };
}
