import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyClusterInfo } from './cluster-info.js';

const token = 'abcdef.0123456789abcdef';
const kubeconfig =
  'apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster: {server: https://127.0.0.1:6443}\n';
const b64 = (s: string) => Buffer.from(s).toString('base64url');
/** An independent signer (node:crypto), so the WebCrypto verifier is checked against another implementation. */
function sign(content: string, tok: string, header: unknown = { alg: 'HS256', kid: 'abcdef' }): string {
  const h = b64(JSON.stringify(header));
  return `${h}..${createHmac('sha256', tok)
    .update(`${h}.${b64(content)}`)
    .digest('base64url')}`;
}

describe('verifyClusterInfo', () => {
  it('returns the kubeconfig when the HS256 detached signature matches', async () => {
    const cm = { data: { kubeconfig, 'jws-kubeconfig-abcdef': sign(kubeconfig, token) } };
    await expect(verifyClusterInfo(cm, token)).resolves.toBe(kubeconfig);
  });

  it.each([
    ['a token not in the bootstrap format', { kubeconfig }, 'ABC.def', 'is not in the form'],
    ['no kubeconfig', {}, token, 'no data.kubeconfig'],
    ['no signature for the id', { kubeconfig }, token, 'no signature for token id abcdef'],
    [
      'another token’s secret',
      { kubeconfig, 'jws-kubeconfig-abcdef': sign(kubeconfig, 'abcdef.ffffffffffffffff') },
      token,
      'does not match',
    ],
    [
      'a tampered kubeconfig',
      { kubeconfig: `${kubeconfig}#`, 'jws-kubeconfig-abcdef': sign(kubeconfig, token) },
      token,
      'does not match',
    ],
    [
      'alg none',
      { kubeconfig, 'jws-kubeconfig-abcdef': `${b64(JSON.stringify({ alg: 'none' }))}..` },
      token,
      'algorithm "none" refused',
    ],
    [
      'HS512 (not HS256)',
      { kubeconfig, 'jws-kubeconfig-abcdef': sign(kubeconfig, token, { alg: 'HS512' }) },
      token,
      'algorithm "HS512" refused',
    ],
    [
      'a header without alg',
      { kubeconfig, 'jws-kubeconfig-abcdef': sign(kubeconfig, token, {}) },
      token,
      'algorithm undefined refused',
    ],
    [
      'an attached (non-detached) JWS',
      { kubeconfig, 'jws-kubeconfig-abcdef': 'a.b.c' },
      token,
      'not a detached JWS',
    ],
    [
      'a header that is not JSON',
      { kubeconfig, 'jws-kubeconfig-abcdef': `${b64('{')}..x` },
      token,
      'not JSON',
    ],
  ])('refuses %s', async (_name, data, tok, message) => {
    await expect(verifyClusterInfo({ data: data as Record<string, string> }, tok)).rejects.toThrow(message);
  });
});
