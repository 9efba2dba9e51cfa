import { createUnionAuthenticator } from '@orchard/authn';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiServer } from '../server.js';
import type { AuthorizationAttributes, Authorizer } from './authorization.js';
import { composeFilters, type Filter, type FilterContext } from './filter.js';

describe('composeFilters', () => {
  it('runs the filters outermost first, then the handler; a filter that throws ends the chain', async () => {
    const seen: string[] = [];
    const tag =
      (name: string): Filter =>
      (_ctx, next) => {
        seen.push(name);
        return next();
      };
    const ctx = {} as FilterContext;
    await composeFilters([tag('a'), tag('b')], async () => {
      seen.push('handler');
    })(ctx);
    expect(seen).toEqual(['a', 'b', 'handler']);
    seen.length = 0;
    const stop: Filter = () => {
      throw new Error('stop');
    };
    await expect(
      (async () =>
        composeFilters([tag('a'), stop, tag('c')], async () => {
          seen.push('handler');
        })(ctx))(),
    ).rejects.toThrow('stop');
    expect(seen).toEqual(['a']);
  });
});

describe('authenticator and authorizer options', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function start(options: Parameters<typeof createApiServer>[0]) {
    const server = createApiServer(options);
    const { url } = await server.listen();
    close = () => server.close();
    return url;
  }

  it('denies what the authorizer does not allow with a Forbidden Status naming user, verb and resource', async () => {
    const asked: AuthorizationAttributes[] = [];
    const authorizer: Authorizer = {
      authorize(a) {
        asked.push(a);
        if (a.resource === 'secrets') return { decision: 'deny', reason: 'no secrets for you' };
        if (a.resource === 'configmaps') return Promise.resolve({ decision: 'no-opinion', reason: '' });
        return { decision: 'allow', reason: '' };
      },
    };
    const url = await start({ authorizer });
    const secrets = await fetch(`${url}/api/v1/namespaces/default/secrets/s1`);
    expect(secrets.status).toBe(403);
    expect(await secrets.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message:
        'secrets "s1" is forbidden: User "admin" cannot get resource "secrets" in API group "" in the namespace "default": no secrets for you',
    });
    const cms = await fetch(`${url}/api/v1/configmaps`);
    expect(cms.status).toBe(403);
    expect(((await cms.json()) as { message: string }).message).toBe(
      'configmaps is forbidden: User "admin" cannot list resource "configmaps" in API group "" at the cluster scope',
    );
    const other = await fetch(`${url}/healthz/nope`, { method: 'POST' });
    expect(other.status).toBe(405);
    expect((await fetch(`${url}/api/v1/namespaces`)).status).toBe(200);
    expect(asked.find((a) => a.resource === 'secrets')).toMatchObject({
      user: { username: 'admin' },
      verb: 'get',
      isResourceRequest: true,
      namespace: 'default',
      name: 's1',
    });
    expect(asked.find((a) => !a.isResourceRequest)).toMatchObject({ verb: 'post', path: '/healthz/nope' });
  });

  it('serves the authenticated user; without one, 401 except on the public paths', async () => {
    const url = await start({
      authorizationModes: ['AlwaysAllow'],
      authenticator: createUnionAuthenticator({
        authenticators: [
          {
            authenticate: async (r) =>
              r.headers['x-user']
                ? { kind: 'user', user: { username: String(r.headers['x-user']), groups: [] } }
                : { kind: 'none' },
          },
        ],
      }),
    });
    expect((await fetch(`${url}/api/v1/namespaces`)).status).toBe(401);
    expect((await fetch(`${url}/version`)).status).toBe(200);
    const review = await fetch(`${url}/apis/authentication.orch.io/v1/selfsubjectreviews`, {
      method: 'POST',
      headers: { 'x-user': 'alice', 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' }),
    });
    expect(review.status).toBe(201);
    expect(
      ((await review.json()) as { status: { userInfo: { username: string } } }).status.userInfo.username,
    ).toBe('alice');
  });
});
