import { type Flavor, orchFlavor, type UserInfo } from '@orchard/meta';
import { getOwn } from '@orchard/meta/internal';
import {
  type AuthenticationResult,
  noOpinion,
  type TokenAuthenticator,
  userResult,
} from './authenticator.js';
import { isAuthnError, unauthorized } from './errors.js';
import { createHttpsFetch, type FetchLike } from './https-fetch.js';
import { createTokenCache } from './token-cache.js';
import type { WebhookConnection } from './webhook-kubeconfig.js';

/**
 * Options of the webhook token authenticator: the connection is required, the rest default as each field says
 * (`defaultWebhookTokenAuthenticatorOptions` holds the defaults that are values).
 */
export interface WebhookTokenAuthenticatorOptions {
  /** The remote service (from `loadWebhookKubeconfig(--authentication-token-webhook-config-file)`). */
  readonly connection: WebhookConnection;
  /** `--authentication-token-webhook-version`: the TokenReview version sent. Default `v1`. */
  readonly version?: 'v1' | 'v1beta1';
  /** `--authentication-token-webhook-cache-ttl`, ms: how long answers are reused. Default 2 min; 0 disables. */
  readonly cacheTtlMs?: number;
  /** A request still unanswered after this fails (401), ms. Default 10 s. */
  readonly timeoutMs?: number;
  /** `authentication.<domain>`. Default the orch flavor. */
  readonly flavor?: Flavor;
  /** The API server's audiences (`--api-audiences`), sent as `spec.audiences`; an answer must share one. */
  readonly audiences?: readonly string[];
  /** Replaces the node:https client built from `connection` (tests). */
  readonly fetch?: FetchLike;
  readonly now?: () => number;
}

/**
 * The defaults of `WebhookTokenAuthenticatorOptions` that are values: TokenReview `v1`, answers reused for 2
 * minutes, a 10 s request deadline. Frozen.
 */
export const defaultWebhookTokenAuthenticatorOptions: Readonly<
  Required<Pick<WebhookTokenAuthenticatorOptions, 'version' | 'cacheTtlMs' | 'timeoutMs'>>
> = Object.freeze({ version: 'v1', cacheTtlMs: 120_000, timeoutMs: 10_000 });

/** Largest TokenReview answer read. */
const maxAnswerBytes = 1 << 20;

function strings(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined;
}

/** The user of a TokenReview answer, or undefined when it is malformed. */
function userOf(status: Record<string, unknown>): UserInfo | undefined {
  const u = getOwn(status, 'user');
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return undefined;
  const username = getOwn(u, 'username');
  const uid = getOwn(u, 'uid') ?? '';
  const groups = strings(getOwn(u, 'groups'));
  if (typeof username !== 'string' || username === '' || typeof uid !== 'string' || !groups) return undefined;
  const rawExtra = getOwn(u, 'extra');
  const extra: Record<string, string[]> = {};
  if (rawExtra !== undefined && rawExtra !== null) {
    if (typeof rawExtra !== 'object' || Array.isArray(rawExtra)) return undefined;
    for (const k of Object.keys(rawExtra)) {
      const v = strings(getOwn(rawExtra, k));
      if (!v) return undefined;
      Object.defineProperty(extra, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
  }
  return {
    username,
    ...(uid !== '' ? { uid } : {}),
    groups,
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

/**
 * Webhook token authentication (doc 2 §5.2): a TokenReview (`authentication.<domain>/v1`, or v1beta1)
 * with the bearer token is POSTed to the configured service; `status.authenticated: true` with a user
 * is a success; `false` is no opinion (with `status.error`: a 401); an error status, a timeout or a
 * malformed answer is a 401. Answers are cached for `cacheTtlMs` by token; failures to get one are not.
 */
export function createWebhookTokenAuthenticator(
  options: WebhookTokenAuthenticatorOptions,
): TokenAuthenticator {
  const o = { ...defaultWebhookTokenAuthenticatorOptions, ...options };
  const c = o.connection;
  const doFetch =
    options.fetch ??
    createHttpsFetch({
      timeoutMs: o.timeoutMs,
      maxBodyBytes: maxAnswerBytes,
      ...(c.ca !== undefined ? { ca: c.ca } : {}),
      ...(c.cert !== undefined ? { cert: c.cert } : {}),
      ...(c.key !== undefined ? { key: c.key } : {}),
      ...(c.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
      ...(c.serverName !== undefined ? { serverName: c.serverName } : {}),
    });
  const now = options.now ?? Date.now;
  const apiVersion = `authentication.${(o.flavor ?? orchFlavor).domain}/${o.version}`;
  const cache = createTokenCache({ now });

  async function review(token: string): Promise<AuthenticationResult> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (c.token !== undefined) headers.authorization = `Bearer ${c.token}`;
    const spec: Record<string, unknown> = { token };
    if (o.audiences && o.audiences.length > 0) spec.audiences = [...o.audiences];
    const signal = AbortSignal.timeout(o.timeoutMs);
    let res: Response;
    try {
      res = await doFetch(c.server, {
        method: 'POST',
        headers,
        body: JSON.stringify({ apiVersion, kind: 'TokenReview', spec }),
        signal,
      });
    } catch (e) {
      throw unauthorized(`webhook: ${(e as Error).message}`);
    }
    if (res.status < 200 || res.status > 299) throw unauthorized(`webhook: HTTP ${res.status}`);
    let body: unknown;
    try {
      const text = await res.text();
      if (text.length > maxAnswerBytes) throw new Error('answer too large');
      body = JSON.parse(text);
    } catch (e) {
      throw unauthorized(`webhook: malformed answer: ${(e as Error).message}`);
    }
    const status =
      typeof body === 'object' && body !== null && getOwn(body, 'kind') === 'TokenReview'
        ? getOwn(body, 'status')
        : undefined;
    if (typeof status !== 'object' || status === null || Array.isArray(status)) {
      throw unauthorized('webhook: malformed answer: no TokenReview status');
    }
    const st = status as Record<string, unknown>;
    const authenticated = getOwn(st, 'authenticated');
    if (authenticated !== true) {
      // As upstream: a plain "no" is no opinion (the bearer-token union answers 401 when no
      // method accepts the token); a "no" with an error is a failure. Both are answers, cached.
      const err = getOwn(st, 'error');
      if (typeof err === 'string' && err !== '')
        throw Object.assign(unauthorized(`webhook: ${err}`), { cacheable: true });
      return noOpinion;
    }
    const user = userOf(st);
    if (!user) throw unauthorized('webhook: malformed answer: bad status.user');
    const answered = strings(getOwn(st, 'audiences'));
    if (!answered) throw unauthorized('webhook: malformed answer: bad status.audiences');
    let audiences: string[] | undefined;
    if (o.audiences && o.audiences.length > 0) {
      // An answer without audiences means the API server's own.
      audiences = answered.length === 0 ? [...o.audiences] : answered.filter((a) => o.audiences!.includes(a));
      if (audiences.length === 0) throw unauthorized('webhook: token audiences do not match');
    }
    return userResult(user, audiences);
  }

  return {
    async authenticateToken(token): Promise<AuthenticationResult> {
      if (o.cacheTtlMs > 0) {
        const hit = cache.get(token);
        if (hit?.ok) return hit.result;
        if (hit && !hit.ok) throw unauthorized(hit.detail);
      }
      try {
        const result = await review(token);
        if (o.cacheTtlMs > 0) cache.set(token, { ok: true, result }, now() + o.cacheTtlMs);
        return result;
      } catch (e) {
        if (isAuthnError(e) && (e as { cacheable?: boolean }).cacheable && o.cacheTtlMs > 0) {
          cache.set(
            token,
            { ok: false, detail: e.detail ?? 'webhook: not authenticated' },
            now() + o.cacheTtlMs,
          );
        }
        if (isAuthnError(e)) throw e;
        throw unauthorized(`webhook: ${(e as Error)?.message ?? String(e)}`);
      }
    },
  };
}
