import { newServiceAccountSigningKey } from '@orchard/testing';
import { describe, expect, it } from 'vitest';
import { flavors, startAuthServer } from './helpers/auth-server.js';

/**
 * Service-account token options that need a server of their own (doc 2 §5.2): `--service-account-lookup=false`
 * and a server without a signing key. The rest is in service-account-tokens.e2e.test.ts.
 */
const issuer = 'https://issuer.test';
const signingKey = newServiceAccountSigningKey();

describe.each(flavors)('--service-account-lookup=false and no signing key ($name flavor)', (flavor) => {
  it('without lookup a deleted account’s token keeps working until it expires', async () => {
    const api = await startAuthServer({
      flavor,
      authentication: { serviceAccounts: { keys: [], signingKey, issuers: [issuer], lookup: false } },
    });
    try {
      const admin = { cert: api.tls.admin };
      await api.call('POST', '/api/v1/namespaces/default/serviceaccounts', {
        ...admin,
        body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
      });
      const r = await api.call('POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', {
        ...admin,
        body: { spec: {} },
      });
      await api.call('DELETE', '/api/v1/namespaces/default/serviceaccounts/robot', admin);
      expect((await api.whoami({ headers: { authorization: `Bearer ${r.json.status.token}` } })).status).toBe(
        201,
      );
    } finally {
      await api.stop();
    }
  });

  it('without a signing key the token sub-resource is 404', async () => {
    const api = await startAuthServer({ flavor });
    try {
      const r = await api.call('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
        cert: api.tls.admin,
        body: { spec: {} },
      });
      expect(r.status).toBe(404);
    } finally {
      await api.stop();
    }
  });
});
