import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RestClient } from '@orchard/client';
import type { Flavor } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';

/** The caller of a request to the agent's port. */
export interface RequestUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The authorization attributes of a request to the agent (upstream kubelet's mapping). */
export interface AgentRequestAttributes {
  readonly verb: string;
  readonly resource: 'nodes';
  readonly subresource: string;
  readonly name: string;
}

/** How the agent authenticates and authorizes requests to its port (KubeletConfiguration's `authentication`/`authorization`). */
export interface DelegatedAuthOptions {
  /** The agent's own API client (its node credentials): TokenReviews and SubjectAccessReviews go through it. */
  readonly client: RestClient;
  readonly flavor: Flavor;
  readonly nodeName: string;
  /** `authentication.anonymous.enabled`. Default false (upstream's configuration-file default). */
  readonly anonymous?: boolean;
  /** `authentication.webhook.enabled`: bearer tokens checked by TokenReview. Default true. */
  readonly webhookAuthentication?: boolean;
  /** `authorization.mode`. Default `Webhook` (SubjectAccessReview). */
  readonly authorizationMode?: 'Webhook' | 'AlwaysAllow';
  /** Per review request. Default 10 s. */
  readonly requestTimeoutMs?: number;
  /** Caches of review answers (`createReviewCaches`); none: every request is reviewed. */
  readonly cache?: ReviewCaches;
}

/** How long review answers are reused (upstream kubelet's defaults: tokens 2 min, allowed 5 min, denied 30 s; 0 = not cached). */
export interface ReviewCacheTtls {
  /** `authentication.webhook.cacheTTL`: TokenReview answers, accepted or rejected. */
  readonly tokenMs?: number;
  /** `authorization.webhook.cacheAuthorizedTTL`. */
  readonly authorizedMs?: number;
  /** `authorization.webhook.cacheUnauthorizedTTL`. */
  readonly unauthorizedMs?: number;
}

/** The agent's caches of TokenReview and SubjectAccessReview answers. */
export interface ReviewCaches {
  readonly ttls: Required<ReviewCacheTtls>;
  readonly tokens: Map<string, { readonly user: RequestUser | null; readonly expires: number }>;
  readonly decisions: Map<string, { readonly allowed: boolean; readonly expires: number }>;
}

/** Most answers kept per cache; the oldest goes first. */
const maxCached = 4096;

/** Empty review caches with upstream's TTLs unless given. */
export function createReviewCaches(ttls: ReviewCacheTtls = {}): ReviewCaches {
  return {
    ttls: {
      tokenMs: ttls.tokenMs ?? 120_000,
      authorizedMs: ttls.authorizedMs ?? 300_000,
      unauthorizedMs: ttls.unauthorizedMs ?? 30_000,
    },
    tokens: new Map(),
    decisions: new Map(),
  };
}

function cached<V extends { expires: number }>(map: Map<string, V>, key: string): V | undefined {
  const hit = map.get(key);
  if (hit === undefined) return undefined;
  if (hit.expires > Date.now()) return hit;
  map.delete(key);
  return undefined;
}

function remember<V extends { expires: number }>(map: Map<string, V>, key: string, value: V): void {
  if (value.expires <= Date.now()) return;
  map.delete(key);
  map.set(key, value);
  if (map.size > maxCached) map.delete(map.keys().next().value as string);
}

/** `user.Info`'s group of every authenticated (non-anonymous) caller. */
const authenticatedGroup = 'system:authenticated';

/**
 * The attributes upstream's kubelet authorizes a request with: resource `nodes`, name = the node,
 * verb from the HTTP method (POST create, GET get, PUT update, PATCH patch, DELETE delete), and the
 * subresource from the path (`/stats` stats, `/metrics` metrics, `/logs` log, `/checkpoint`
 * checkpoint, anything else proxy).
 */
export function requestAttributes(method: string, path: string, nodeName: string): AgentRequestAttributes {
  const verbs: Record<string, string> = {
    POST: 'create',
    GET: 'get',
    PUT: 'update',
    PATCH: 'patch',
    DELETE: 'delete',
  };
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  const subresource = under('/stats')
    ? 'stats'
    : under('/metrics')
      ? 'metrics'
      : under('/logs')
        ? 'log'
        : under('/checkpoint')
          ? 'checkpoint'
          : 'proxy';
  return {
    verb: Object.hasOwn(verbs, method) ? (verbs[method] as string) : '',
    resource: 'nodes',
    subresource,
    name: nodeName,
  };
}

/** A user with `system:authenticated` added when missing (upstream's AuthenticatedGroupAdder). */
function withAuthenticatedGroup(user: RequestUser): RequestUser {
  return user.groups.includes(authenticatedGroup)
    ? user
    : { ...user, groups: [...user.groups, authenticatedGroup] };
}

/** The verified client certificate's identity (CN = user, O = groups), when the TLS layer verified one. */
function certificateUser(req: IncomingMessage): RequestUser | 'invalid' | undefined {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate !== 'function') return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return undefined;
  if (!socket.authorized) return 'invalid';
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined> | undefined;
  const cn = subject?.CN;
  const username = Array.isArray(cn) ? (cn[0] ?? '') : (cn ?? '');
  if (username === '') return 'invalid';
  const o = subject?.O;
  const groups = o === undefined ? [] : Array.isArray(o) ? o : [o];
  return { username, groups };
}

/**
 * The bearer token of the `Authorization` header: undefined when the header is absent or of another
 * scheme (no credential), '' when it says Bearer without a single token (an invalid credential).
 */
function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const parts = header.trim().split(/\s+/);
  if (parts[0]?.toLowerCase() !== 'bearer') return undefined;
  return parts.length === 2 ? (parts[1] as string) : '';
}

/** Runs a TokenReview for `token`; the reviewed user, or undefined when the server says it is not valid. */
async function reviewToken(o: DelegatedAuthOptions, token: string): Promise<RequestUser | undefined> {
  const apiVersion = `${o.flavor.group('authentication')}/v1`;
  const review = await o.client.json<Record<string, unknown>>({
    method: 'POST',
    path: `/apis/${apiVersion}/tokenreviews`,
    body: { apiVersion, kind: 'TokenReview', spec: { token } },
    signal: AbortSignal.timeout(o.requestTimeoutMs ?? 10_000),
  });
  const status = isJsonObject(review.status) ? review.status : {};
  if (status.authenticated !== true || !isJsonObject(status.user)) return undefined;
  const u = status.user;
  if (typeof u.username !== 'string' || u.username === '') return undefined;
  const groups = Array.isArray(u.groups) ? u.groups.filter((g): g is string => typeof g === 'string') : [];
  return {
    username: u.username,
    ...(typeof u.uid === 'string' && u.uid !== '' ? { uid: u.uid } : {}),
    groups,
    ...(isJsonObject(u.extra) ? { extra: u.extra as Record<string, string[]> } : {}),
  };
}

/**
 * Authenticates a request as upstream's kubelet does: a client certificate verified against the
 * client CA (CN = user, O = groups), else a bearer token checked with a TokenReview, else — when
 * anonymous access is on and no credential was presented — `system:anonymous`. A presented
 * credential that fails (or a review that cannot be made) is never taken as anonymous. Returns
 * undefined for a 401.
 */
export async function authenticateRequest(
  req: IncomingMessage,
  o: DelegatedAuthOptions,
): Promise<RequestUser | undefined> {
  const fromCert = certificateUser(req);
  if (fromCert !== undefined && fromCert !== 'invalid') return withAuthenticatedGroup(fromCert);
  const token = (o.webhookAuthentication ?? true) ? bearerToken(req) : undefined;
  if (token !== undefined) {
    if (token === '') return undefined;
    const key = createHash('sha256').update(token).digest('hex');
    const hit = o.cache ? cached(o.cache.tokens, key) : undefined;
    if (hit) return hit.user ?? undefined;
    try {
      const reviewed = await reviewToken(o, token);
      const user = reviewed ? withAuthenticatedGroup(reviewed) : null;
      if (o.cache) remember(o.cache.tokens, key, { user, expires: Date.now() + o.cache.ttls.tokenMs });
      return user ?? undefined;
    } catch {
      return undefined;
    }
  }
  if (fromCert === 'invalid') return undefined;
  return o.anonymous ? { username: 'system:anonymous', groups: ['system:unauthenticated'] } : undefined;
}

/** The outcome of authorizing a request. */
export type AuthorizationOutcome = { readonly allowed: boolean } | { readonly error: string };

/**
 * Authorizes `attrs` for `user` with a SubjectAccessReview (or allows all under `AlwaysAllow`).
 * A review that cannot be made is an `error` outcome (upstream answers 500 then).
 */
export async function authorizeRequest(
  user: RequestUser,
  attrs: AgentRequestAttributes,
  o: DelegatedAuthOptions,
): Promise<AuthorizationOutcome> {
  if (o.authorizationMode === 'AlwaysAllow') return { allowed: true };
  const key = JSON.stringify([
    user.username,
    user.uid ?? '',
    [...user.groups].sort(),
    user.extra ?? {},
    attrs,
  ]);
  const hit = o.cache ? cached(o.cache.decisions, key) : undefined;
  if (hit) return { allowed: hit.allowed };
  const apiVersion = `${o.flavor.group('authorization')}/v1`;
  try {
    const review = await o.client.json<Record<string, unknown>>({
      method: 'POST',
      path: `/apis/${apiVersion}/subjectaccessreviews`,
      body: {
        apiVersion,
        kind: 'SubjectAccessReview',
        spec: {
          user: user.username,
          ...(user.uid ? { uid: user.uid } : {}),
          groups: [...user.groups],
          ...(user.extra ? { extra: user.extra } : {}),
          resourceAttributes: {
            namespace: '',
            verb: attrs.verb,
            group: '',
            version: 'v1',
            resource: attrs.resource,
            subresource: attrs.subresource,
            name: attrs.name,
          },
        },
      },
      signal: AbortSignal.timeout(o.requestTimeoutMs ?? 10_000),
    });
    const status = isJsonObject(review.status) ? review.status : {};
    const allowed = status.allowed === true && status.denied !== true;
    if (o.cache) {
      const ttl = allowed ? o.cache.ttls.authorizedMs : o.cache.ttls.unauthorizedMs;
      remember(o.cache.decisions, key, { allowed, expires: Date.now() + ttl });
    }
    return { allowed };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** upstream's text of a refused or failed authorization: `<prefix> (user=…, verb=…, resource=…, subresource=…)`. */
export function authorizationMessage(
  prefix: string,
  user: RequestUser,
  attrs: AgentRequestAttributes,
): string {
  return `${prefix} (user=${user.username}, verb=${attrs.verb}, resource=${attrs.resource}, subresource=${attrs.subresource})`;
}
