import { describe, expect, it } from 'vitest';
import { type BootstrapTokenSecret, createBootstrapTokenAuthenticator } from './bootstrap-token.js';

const b64 = (s: string) => btoa(s);
const now = Date.parse('2026-01-01T00:00:00Z');
function secret(
  over: Record<string, string> = {},
  extra: Partial<BootstrapTokenSecret> = {},
): BootstrapTokenSecret {
  const data: Record<string, string> = {
    'token-id': 'abcdef',
    'token-secret': '0123456789abcdef',
    'usage-bootstrap-authentication': 'true',
    expiration: '2026-01-02T00:00:00Z',
    'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
    ...over,
  };
  return {
    type: 'bootstrap.kubernetes.io/token',
    ...extra,
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

describe('bootstrap tokens', () => {
  const rows: [string, BootstrapTokenSecret | undefined, string, string | 'none' | 'Unauthorized'][] = [
    ['valid', secret(), 'abcdef.0123456789abcdef', 'system:bootstrap:abcdef'],
    ['expired', secret({ expiration: '2025-12-31T00:00:00Z' }), 'abcdef.0123456789abcdef', 'Unauthorized'],
    ['unparsable expiration', secret({ expiration: 'tomorrow' }), 'abcdef.0123456789abcdef', 'Unauthorized'],
    ['wrong secret (signature)', secret(), 'abcdef.0123456789abcdee', 'Unauthorized'],
    ['revoked (secret deleted)', undefined, 'abcdef.0123456789abcdef', 'Unauthorized'],
    [
      'being deleted',
      secret({}, { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } }),
      'abcdef.0123456789abcdef',
      'Unauthorized',
    ],
    ['wrong type', { ...secret(), type: 'Opaque' }, 'abcdef.0123456789abcdef', 'Unauthorized'],
    [
      'not for authentication',
      secret({ 'usage-bootstrap-authentication': 'false' }),
      'abcdef.0123456789abcdef',
      'Unauthorized',
    ],
    [
      'bad extra group prefix',
      secret({ 'auth-extra-groups': 'system:masters' }),
      'abcdef.0123456789abcdef',
      'Unauthorized',
    ],
    ['malformed token (not the format) is no opinion', secret(), 'ABCDEF.0123456789abcdef', 'none'],
    ['malformed token (short)', secret(), 'abcdef.0123', 'none'],
    [
      'token-id mismatch inside the secret',
      secret({ 'token-id': 'zzzzzz' }),
      'abcdef.0123456789abcdef',
      'Unauthorized',
    ],
  ];
  for (const [name, s, token, want] of rows) {
    it(name, async () => {
      const a = createBootstrapTokenAuthenticator({
        getSecret: async (ns, n) => (ns === 'kube-system' && n === 'bootstrap-token-abcdef' ? s : undefined),
        now: () => now,
      });
      const r = await a.authenticateToken(token).catch((e: Error & { code: string }) => e);
      if (want === 'Unauthorized') expect(r).toMatchObject({ code: 'Unauthorized', message: 'Unauthorized' });
      else if (want === 'none') expect(r).toEqual({ kind: 'none' });
      else
        expect(r).toEqual({
          kind: 'user',
          user: {
            username: want,
            groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token'],
          },
        });
    });
  }
  it('the orch flavor domain', async () => {
    const a = createBootstrapTokenAuthenticator({
      domain: 'orchard.dev',
      getSecret: async () => ({ ...secret(), type: 'bootstrap.orchard.dev/token' }),
      now: () => now,
    });
    expect((await a.authenticateToken('abcdef.0123456789abcdef')).kind).toBe('user');
  });
});
