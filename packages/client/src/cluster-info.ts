import { fromBase64Url, toBase64Url } from '@orchard/meta/internal';
import { ClientError } from './errors.js';

/** The parts of a `cluster-info` ConfigMap `verifyClusterInfo` reads. */
export interface ClusterInfoConfigMap {
  readonly data?: Readonly<Record<string, string>> | null;
}

const tokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const base64url = /^[A-Za-z0-9_-]*$/;

function fromBase64url(s: string): string {
  const bytes = fromBase64Url(s);
  if (!bytes) throw new Error('not base64url');
  return new TextDecoder().decode(bytes);
}

function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

const fail = (message: string) => new ClientError('InvalidConfig', 0, message);

/**
 * Verifies the signed `cluster-info` ConfigMap with a bootstrap token (doc 2 §2.4) and returns its
 * `data.kubeconfig`: the detached JWS `data.jws-kubeconfig-<id>` must be `<header>..<signature>`
 * whose header says `HS256` (anything else — `none`, RS256, a missing alg — is refused), and the
 * HMAC-SHA256 of `<header>.<base64url(kubeconfig)>` with the whole token as key must match
 * (compared in constant time). Rejects with a `ClientError` naming what is wrong. WebCrypto only:
 * runs in browsers too.
 */
export async function verifyClusterInfo(configMap: ClusterInfoConfigMap, token: string): Promise<string> {
  const m = tokenPattern.exec(token);
  if (!m) throw fail('the bootstrap token is not in the form [a-z0-9]{6}.[a-z0-9]{16}');
  const id = m[1] as string;
  const data = configMap.data ?? {};
  const kubeconfig = Object.hasOwn(data, 'kubeconfig') ? data.kubeconfig : undefined;
  if (typeof kubeconfig !== 'string') throw fail('cluster-info has no data.kubeconfig');
  const key = `jws-kubeconfig-${id}`;
  const jws = Object.hasOwn(data, key) ? data[key] : undefined;
  if (typeof jws !== 'string') throw fail(`cluster-info has no signature for token id ${id} (data.${key})`);
  const parts = jws.split('.');
  if (
    parts.length !== 3 ||
    parts[1] !== '' ||
    !base64url.test(parts[0] as string) ||
    !base64url.test(parts[2] as string)
  )
    throw fail(`data.${key} is not a detached JWS (<header>..<signature>)`);
  let header: unknown;
  try {
    header = JSON.parse(fromBase64url(parts[0] as string));
  } catch {
    throw fail(`data.${key}: the JWS header is not JSON`);
  }
  const alg = (header as { alg?: unknown } | null)?.alg;
  if (alg !== 'HS256')
    throw fail(`data.${key}: algorithm ${JSON.stringify(alg)} refused; only HS256 is accepted`);
  const signingInput = `${parts[0]}.${toBase64Url(new TextEncoder().encode(kubeconfig))}`;
  const hmacKey = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(token),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(signingInput)),
  );
  if (!constantTimeEqual(toBase64Url(mac), parts[2] as string))
    throw fail(`data.${key}: the signature does not match the kubeconfig and token`);
  return kubeconfig;
}
