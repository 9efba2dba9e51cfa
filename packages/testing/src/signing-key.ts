import { generateKeyPairSync } from 'node:crypto';
import { parseServiceAccountSigningKey } from '@orchard/apiserver';

/** A parsed service-account signing key, as `server.authentication.serviceAccounts.signingKey` takes it. */
export type ServiceAccountSigningKey = ReturnType<typeof parseServiceAccountSigningKey>;

/**
 * A fresh P-256 service-account signing key, parsed as `--service-account-signing-key-file` would be.
 *
 *   startTestServer({ server: { authentication: { serviceAccounts: {
 *     keys: [], signingKey: newServiceAccountSigningKey(), issuers: ['https://issuer.test'] } } } });
 */
export function newServiceAccountSigningKey(): ServiceAccountSigningKey {
  const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  return parseServiceAccountSigningKey(pem, 'sa.key');
}
