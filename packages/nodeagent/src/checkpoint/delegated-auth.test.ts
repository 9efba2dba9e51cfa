import type { IncomingMessage } from 'node:http';
import type { RequestOptions, RestClient } from '@orchard/client';
import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import {
  authenticateRequest,
  authorizationMessage,
  authorizeRequest,
  createReviewCaches,
  type DelegatedAuthOptions,
} from './delegated-auth.js';

/** A client answering reviews from a table; records each request. */
function stubClient(answer: (o: RequestOptions) => unknown): RestClient & { seen: RequestOptions[] } {
  const seen: RequestOptions[] = [];
  return {
    seen,
    connection: { server: 'https://api.invalid' },
    json: async <T>(o: RequestOptions) => {
      seen.push(o);
      const r = answer(o);
      if (r instanceof Error) throw r;
      return r as T;
    },
    raw: () => Promise.reject(new Error('unused')),
    stream: () => Promise.reject(new Error('unused')),
  } as RestClient & { seen: RequestOptions[] };
}

const req = (authorization?: string) =>
  ({
    headers: authorization === undefined ? {} : { authorization },
    socket: {},
  }) as unknown as IncomingMessage;

const reviewed = (o: RequestOptions) => {
  const token = (o.body as { spec: { token: string } }).spec.token;
  return token === 'good'
    ? {
        status: {
          authenticated: true,
          user: { username: 'jane', uid: 'u1', groups: ['dev'], extra: { scope: ['a'] } },
        },
      }
    : { status: { authenticated: false, error: 'invalid token' } };
};

describe('delegated authentication and authorization (issue 17 item 5)', () => {
  it('a bearer token goes through a TokenReview of the flavor’s group; system:authenticated is added', async () => {
    for (const flavor of [orchFlavor, kubernetesFlavor]) {
      const client = stubClient(reviewed);
      const o: DelegatedAuthOptions = { client, flavor, nodeName: 'n1' };
      expect(await authenticateRequest(req('Bearer good'), o)).toEqual({
        username: 'jane',
        uid: 'u1',
        groups: ['dev', 'system:authenticated'],
        extra: { scope: ['a'] },
      });
      expect(client.seen[0]).toMatchObject({
        method: 'POST',
        path: `/apis/${flavor.group('authentication')}/v1/tokenreviews`,
        body: { kind: 'TokenReview', spec: { token: 'good' } },
      });
    }
  });

  it('401 cases: a rejected token, a failed review, a malformed bearer header, no credential with anonymous off', async () => {
    const o = (
      extra: Partial<DelegatedAuthOptions> = {},
      answer: (o: RequestOptions) => unknown = reviewed,
    ): DelegatedAuthOptions => ({
      client: stubClient(answer),
      flavor: orchFlavor,
      nodeName: 'n1',
      ...extra,
    });
    expect(await authenticateRequest(req('Bearer bad'), o())).toBeUndefined();
    expect(await authenticateRequest(req('Bearer bad'), o({ anonymous: true }))).toBeUndefined();
    expect(
      await authenticateRequest(
        req('Bearer good'),
        o({}, () => new Error('connection refused')),
      ),
    ).toBeUndefined();
    expect(await authenticateRequest(req('Bearer'), o({ anonymous: true }))).toBeUndefined();
    expect(await authenticateRequest(req('Bearer a b'), o({ anonymous: true }))).toBeUndefined();
    expect(await authenticateRequest(req(), o())).toBeUndefined();
    // A TokenReview without a username is no identity.
    expect(
      await authenticateRequest(
        req('Bearer x'),
        o({}, () => ({ status: { authenticated: true, user: {} } })),
      ),
    ).toBeUndefined();
    expect(
      await authenticateRequest(
        req('Bearer x'),
        o({}, () => ({ status: 'yes' })),
      ),
    ).toBeUndefined();
  });

  it('anonymous when enabled and no credential (another scheme is no credential); tokens ignored with the webhook off', async () => {
    const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    const o = (extra: Partial<DelegatedAuthOptions>): DelegatedAuthOptions => ({
      client: stubClient(reviewed),
      flavor: orchFlavor,
      nodeName: 'n1',
      ...extra,
    });
    expect(await authenticateRequest(req(), o({ anonymous: true }))).toEqual(anonymous);
    expect(await authenticateRequest(req('Basic amFuZTpwdw=='), o({ anonymous: true }))).toEqual(anonymous);
    expect(
      await authenticateRequest(req('Bearer good'), o({ anonymous: true, webhookAuthentication: false })),
    ).toEqual(anonymous);
    expect(
      await authenticateRequest(req('Bearer good'), o({ webhookAuthentication: false })),
    ).toBeUndefined();
  });

  it('a SubjectAccessReview on nodes/<subresource> decides; a failed review is an error; AlwaysAllow skips it', async () => {
    const user = { username: 'jane', uid: 'u1', groups: ['dev'], extra: { scope: ['a'] } };
    const attrs = { verb: 'create', resource: 'nodes', subresource: 'checkpoint', name: 'n1' } as const;
    const client = stubClient((ro) => {
      const spec = (ro.body as { spec: { user: string } }).spec;
      return { status: { allowed: spec.user === 'jane' } };
    });
    const o: DelegatedAuthOptions = { client, flavor: kubernetesFlavor, nodeName: 'n1' };
    expect(await authorizeRequest(user, attrs, o)).toEqual({ allowed: true });
    expect(client.seen[0]).toMatchObject({
      path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: {
        kind: 'SubjectAccessReview',
        spec: {
          user: 'jane',
          uid: 'u1',
          groups: ['dev'],
          extra: { scope: ['a'] },
          resourceAttributes: {
            namespace: '',
            verb: 'create',
            group: '',
            version: 'v1',
            resource: 'nodes',
            subresource: 'checkpoint',
            name: 'n1',
          },
        },
      },
    });
    expect(await authorizeRequest({ ...user, username: 'bob' }, attrs, o)).toEqual({ allowed: false });
    const denying = stubClient(() => ({ status: { allowed: true, denied: true } }));
    expect(await authorizeRequest(user, attrs, { ...o, client: denying })).toEqual({ allowed: false });
    const failing = stubClient(() => new Error('503 Service Unavailable'));
    expect(await authorizeRequest(user, attrs, { ...o, client: failing })).toEqual({
      error: '503 Service Unavailable',
    });
    const unused = stubClient(() => new Error('not called'));
    expect(
      await authorizeRequest(user, attrs, { ...o, client: unused, authorizationMode: 'AlwaysAllow' }),
    ).toEqual({ allowed: true });
    expect(unused.seen).toHaveLength(0);
    expect(authorizationMessage('Forbidden', user, attrs)).toBe(
      'Forbidden (user=jane, verb=create, resource=nodes, subresource=checkpoint)',
    );
  });

  it('answers are cached for their TTLs (tokens accepted and rejected, decisions allowed and denied); 0 turns a cache off', async () => {
    const client = stubClient((ro) => {
      if (ro.path.endsWith('/tokenreviews')) return reviewed(ro);
      return { status: { allowed: (ro.body as { spec: { user: string } }).spec.user === 'jane' } };
    });
    const o: DelegatedAuthOptions = {
      client,
      flavor: orchFlavor,
      nodeName: 'n1',
      cache: createReviewCaches(),
    };
    expect(o.cache?.ttls).toEqual({ tokenMs: 120_000, authorizedMs: 300_000, unauthorizedMs: 30_000 });
    for (let i = 0; i < 3; i++) {
      expect((await authenticateRequest(req('Bearer good'), o))?.username).toBe('jane');
      expect(await authenticateRequest(req('Bearer bad'), o)).toBeUndefined();
    }
    expect(client.seen.length).toBe(2);
    const attrs = { verb: 'create', resource: 'nodes', subresource: 'checkpoint', name: 'n1' } as const;
    for (let i = 0; i < 3; i++) {
      expect(await authorizeRequest({ username: 'jane', groups: ['b', 'a'] }, attrs, o)).toEqual({
        allowed: true,
      });
      expect(await authorizeRequest({ username: 'jane', groups: ['a', 'b'] }, attrs, o)).toEqual({
        allowed: true,
      });
      expect(await authorizeRequest({ username: 'bob', groups: [] }, attrs, o)).toEqual({ allowed: false });
    }
    expect(client.seen.length).toBe(4);
    // Another subresource is another decision.
    await authorizeRequest({ username: 'jane', groups: [] }, { ...attrs, subresource: 'proxy' }, o);
    expect(client.seen.length).toBe(5);
    const off = stubClient(reviewed);
    const none: DelegatedAuthOptions = {
      client: off,
      flavor: orchFlavor,
      nodeName: 'n1',
      cache: createReviewCaches({ tokenMs: 0 }),
    };
    await authenticateRequest(req('Bearer good'), none);
    await authenticateRequest(req('Bearer good'), none);
    expect(off.seen.length).toBe(2);
  });
});
