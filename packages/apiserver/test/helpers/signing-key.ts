import { generateKeyPairSync } from 'node:crypto';
import { parseServiceAccountSigningKey } from '@orchard/apiserver';

/** A fresh P-256 service-account signing key, parsed as `--service-account-signing-key-file` would be. */
export function newServiceAccountSigningKey(): ReturnType<typeof parseServiceAccountSigningKey> {
  const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  return parseServiceAccountSigningKey(pem, 'sa.key');
}
