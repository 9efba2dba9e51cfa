import { generateKeyPairSync } from 'node:crypto';
import { parseServiceAccountSigningKey } from '@orchard/apiserver';

/** A parsed service-account signing key, as `server.authentication.serviceAccounts.signingKey` takes it. */
export type ServiceAccountSigningKey = ReturnType<typeof parseServiceAccountSigningKey>;

/** A fresh P-256 service-account signing key, parsed as `--service-account-signing-key-file` would be. */
export function newServiceAccountSigningKey(): ServiceAccountSigningKey {
  const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  return parseServiceAccountSigningKey(pem, 'sa.key');
}

/**
 * Server authentication options that issue and accept service-account tokens (a fresh signing key,
 * issuer `https://issuer.test`):
 *
 *   startTestServer({ server: { authentication: serviceAccountTokenAuthentication() } });
 */
export function serviceAccountTokenAuthentication() {
  return {
    serviceAccounts: {
      keys: [],
      signingKey: newServiceAccountSigningKey(),
      issuers: ['https://issuer.test'],
    },
  };
}
