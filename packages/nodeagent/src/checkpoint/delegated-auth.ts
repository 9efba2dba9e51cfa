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
    try {
      const user = await reviewToken(o, token);
      return user ? withAuthenticatedGroup(user) : undefined;
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
    return { allowed: status.allowed === true && status.denied !== true };
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
