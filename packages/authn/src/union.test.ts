import { describe, expect, it } from 'vitest';
import { resolveAnonymousOptions } from './anonymous.js';
import type { AuthenticationRequest, Authenticator } from './authenticator.js';
import { createBearerTokenAuthenticator } from './bearer-token.js';
import { isAuthnError, unauthorized } from './errors.js';
import { createTokenFileAuthenticator, parseTokenFile } from './token-file.js';
import { createUnionAuthenticator } from './union.js';

const req = (headers: AuthenticationRequest['headers'] = {}, path = '/api'): AuthenticationRequest => ({
  headers,
  path,
});
const failing: Authenticator = {
  async authenticate() {
    throw unauthorized('signature check failed: secret detail');
  },
};
const tokens = createBearerTokenAuthenticator([
  createTokenFileAuthenticator(parseTokenFile('abc123,alice,u1,"dev,ops"\n', 't.csv')),
]);

describe('union authenticator', () => {
  const rows: [
    string,
    Authenticator[],
    AuthenticationRequest,
    string | { user: string; groups: string[] },
  ][] = [
    [
      'token user gets system:authenticated',
      [tokens],
      req({ authorization: 'Bearer abc123' }),
      { user: 'alice', groups: ['dev', 'ops', 'system:authenticated'] },
    ],
    [
      'no credential → anonymous',
      [tokens],
      req(),
      { user: 'system:anonymous', groups: ['system:unauthenticated'] },
    ],
    ['unknown token → 401, never anonymous', [tokens], req({ authorization: 'Bearer nope' }), 'Unauthorized'],
    [
      'an invalid credential before a success: success decides',
      [failing, tokens],
      req({ authorization: 'Bearer abc123' }),
      { user: 'alice', groups: ['dev', 'ops', 'system:authenticated'] },
    ],
    ['only failures → 401', [failing, tokens], req(), 'Unauthorized'],
    [
      'other scheme is no opinion',
      [tokens],
      req({ authorization: 'Basic YTpi' }),
      { user: 'system:anonymous', groups: ['system:unauthenticated'] },
    ],
    [
      'malformed bearer header (empty) is no opinion',
      [tokens],
      req({ authorization: 'Bearer ' }),
      { user: 'system:anonymous', groups: ['system:unauthenticated'] },
    ],
  ];
  for (const [name, authenticators, request, want] of rows) {
    it(name, async () => {
      const details: string[] = [];
      const u = createUnionAuthenticator({ authenticators, onFailure: (d) => details.push(d) });
      if (typeof want === 'string') {
        const e = await u.authenticate(request).catch((x: unknown) => x);
        expect(isAuthnError(e, 'Unauthorized')).toBe(true);
        // The message never names the failed check; the detail goes to the log hook only.
        expect((e as Error).message).toBe('Unauthorized');
        expect(details.length).toBe(1);
      } else {
        const r = await u.authenticate(request);
        expect({ user: r.user.username, groups: r.user.groups }).toEqual(want);
      }
    });
  }

  it('anonymous off → 401; anonymous limited to paths', async () => {
    const off = createUnionAuthenticator({ authenticators: [tokens], anonymous: { enabled: false } });
    await expect(off.authenticate(req())).rejects.toMatchObject({
      code: 'Unauthorized',
      message: 'Unauthorized',
    });
    const some = createUnionAuthenticator({
      authenticators: [tokens],
      anonymous: { enabled: true, paths: ['/healthz'] },
    });
    expect((await some.authenticate(req({}, '/healthz'))).anonymous).toBe(true);
    await expect(some.authenticate(req({}, '/api'))).rejects.toMatchObject({ code: 'Unauthorized' });
  });

  it('--anonymous-auth and the config section together is a start-up error', () => {
    expect(resolveAnonymousOptions(undefined, undefined)).toEqual({ enabled: true });
    expect(resolveAnonymousOptions(false, undefined)).toEqual({ enabled: false });
    expect(resolveAnonymousOptions(undefined, { enabled: true, conditions: [{ path: '/livez' }] })).toEqual({
      enabled: true,
      paths: ['/livez'],
    });
    expect(() => resolveAnonymousOptions(true, { enabled: true })).toThrow(
      /--anonymous-auth flag cannot be set/,
    );
    expect(() =>
      resolveAnonymousOptions(undefined, { enabled: false, conditions: [{ path: '/x' }] }),
    ).toThrow(/anonymous.conditions/);
    expect(() =>
      resolveAnonymousOptions(undefined, { enabled: true, conditions: [{ path: '/x' }, { path: '/x' }] }),
    ).toThrow(/conditions\[1\]\.path: Duplicate/);
  });
});
