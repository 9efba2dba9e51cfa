import type { Socket } from 'node:net';
import {
  type AuthenticationResult,
  type Authenticator,
  AuthnError,
  type BootstrapTokenSecret,
  createBearerTokenAuthenticator,
  createBootstrapTokenAuthenticator,
  createOidcAuthenticator,
  createRequestHeaderAuthenticator,
  createServiceAccountTokenAuthenticator,
  createServiceAccountTokenSigner,
  createTokenFileAuthenticator,
  createUnionAuthenticator,
  createX509Authenticator,
  type PinnedKey,
  type ServiceAccountLookup,
  type TokenAuthenticator,
  type UnionAuthenticator,
  type VerifiedClientCertificate,
} from '@orchard/authn';
import type { Flavor, UserInfo } from '@orchard/meta';
import type { ObjectStore } from '../storage/object-store.js';
import type { AuthenticationOptions } from './authentication-options.js';
import { type ClientCaBundle, createClientCertificateReader } from './client-certificate.js';
import { identityDomain } from './identity-domain.js';
import { verificationKeyOf } from './service-account-keys.js';

export const clientCaName = 'client-ca';
export const requestHeaderCaName = 'requestheader-client-ca';

/** What TokenReview answers: the user and the audiences the token is valid for, or why not. */
export type TokenReviewOutcome =
  | { readonly authenticated: true; readonly user: UserInfo; readonly audiences: readonly string[] }
  | { readonly authenticated: false; readonly error: string };

/** Signs TokenRequest tokens (`--service-account-signing-key-file`). */
export type ServiceAccountTokenSigner = ReturnType<typeof createServiceAccountTokenSigner>;

/** The server's authentication, built once at start from `AuthenticationOptions`. */
export interface ServerAuthentication {
  /** The request authenticator (the authentication filter's). */
  readonly union: UnionAuthenticator;
  /** Reads the verified client certificate of a connection (undefined without TLS client CAs). */
  readonly readClientCertificate: (socket: Socket) => VerifiedClientCertificate | undefined;
  /** TokenReview: the token methods with `audiences` (empty = the API audiences). */
  reviewToken(token: string, audiences: readonly string[]): Promise<TokenReviewOutcome>;
  /** The TokenRequest signer, when a signing key is configured. */
  readonly signer: ServiceAccountTokenSigner | undefined;
  /** The API audiences (`--api-audiences`, default the service-account issuers). */
  readonly apiAudiences: readonly string[];
  readonly maxTokenExpirationSeconds: number | undefined;
  /** The methods that are on, for the start-up line (`x509`, `token-file`, …). */
  readonly methods: readonly string[];
}

export interface ServerAuthenticationInput {
  readonly flavor: Flavor;
  readonly objects: ObjectStore;
  readonly options: AuthenticationOptions;
  /** `--client-ca-file` PEM. */
  readonly clientCa?: string | undefined;
  /** `--requestheader-client-ca-file` PEM. */
  readonly requestHeaderClientCa?: string | undefined;
  /** Receives the failed check of each 401 (never sent to the caller). */
  readonly onFailure?: (detail: string) => void;
}

/**
 * A client certificate that no bundle verified (unknown CA, expired, not yet valid) is a credential
 * that failed: 401 unless another method succeeds, as upstream's x509 authenticator answers. A
 * proxy certificate (request-header CA) is no user certificate but not invalid either.
 */
const invalidCertificateAuthenticator: Authenticator = {
  async authenticate(request) {
    const c = request.clientCertificate;
    if (c && c.verifiedBy.length === 0)
      throw new AuthnError(
        'Unauthorized',
        'Unauthorized',
        'client certificate not verified by any CA bundle',
      );
    return { kind: 'none' };
  },
};

const core = (resource: string, namespace: string) => ({ group: '', resource, namespace });

/** The live object's uid; undefined when absent or being deleted (a token bound to it stops working). */
async function liveUid(
  objects: ObjectStore,
  resource: string,
  namespace: string,
  name: string,
): Promise<string | undefined> {
  const { object } = await objects.get(objects.key(core(resource, namespace), name));
  if (!object || object.metadata.deletionTimestamp) return undefined;
  return object.metadata.uid;
}

/** Builds the union and the token methods of `AuthenticationOptions` over the server's storage. */
export function createServerAuthentication(input: ServerAuthenticationInput): ServerAuthentication {
  const { flavor, objects, options } = input;
  const methods: string[] = [];
  const bundles: ClientCaBundle[] = [];
  if (input.clientCa) bundles.push({ name: clientCaName, pem: input.clientCa });
  if (input.requestHeaderClientCa)
    bundles.push({ name: requestHeaderCaName, pem: input.requestHeaderClientCa });
  const readClientCertificate = bundles.length > 0 ? createClientCertificateReader(bundles) : () => undefined;

  const authenticators: Authenticator[] = [];
  if (input.requestHeaderClientCa) {
    authenticators.push(
      createRequestHeaderAuthenticator({ ...options.requestHeader, caName: requestHeaderCaName }),
    );
    methods.push('requestheader');
  }
  if (input.clientCa) {
    authenticators.push(createX509Authenticator({ caName: clientCaName }));
    methods.push('x509');
  }
  if (bundles.length > 0) authenticators.push(invalidCertificateAuthenticator);

  const staticTokens: TokenAuthenticator[] = [];
  if (options.tokenFile) {
    staticTokens.push(createTokenFileAuthenticator(options.tokenFile));
    methods.push('token-file');
  }
  const sa = options.serviceAccounts;
  const saKeys: PinnedKey[] = sa ? [...sa.keys] : [];
  if (sa?.signingKey && !saKeys.some((k) => k.kid !== undefined && k.kid === sa.signingKey?.kid))
    saKeys.push(verificationKeyOf(sa.signingKey));
  const apiAudiences = sa ? [...(sa.apiAudiences ?? sa.issuers)] : [];
  const lookup: ServiceAccountLookup | undefined =
    sa && sa.lookup !== false
      ? {
          getServiceAccountUid: (ns, name) => liveUid(objects, 'serviceaccounts', ns, name),
          getBoundObjectUid: (kind, ns, name) =>
            kind === 'Pod'
              ? liveUid(objects, 'pods', ns, name)
              : kind === 'Secret'
                ? liveUid(objects, 'secrets', ns, name)
                : liveUid(objects, 'nodes', '', name),
        }
      : undefined;
  const serviceAccountAuthenticator = (audiences: readonly string[]) =>
    sa && saKeys.length > 0
      ? createServiceAccountTokenAuthenticator({
          keys: saKeys,
          issuers: sa.issuers,
          audiences,
          domain: identityDomain(flavor),
          ...(lookup ? { lookup } : {}),
        })
      : undefined;
  const saAuthenticator = serviceAccountAuthenticator(apiAudiences);
  if (saAuthenticator) methods.push('service-account');

  const otherTokens: TokenAuthenticator[] = [];
  if (options.bootstrapTokens) {
    otherTokens.push(
      createBootstrapTokenAuthenticator({
        domain: identityDomain(flavor),
        systemNamespace: flavor.systemNamespace,
        getSecret: async (ns, name) => {
          const { object } = await objects.get(objects.key(core('secrets', ns), name));
          return object as BootstrapTokenSecret | undefined;
        },
      }),
    );
    methods.push('bootstrap-token');
  }
  if (options.oidc) {
    otherTokens.push(createOidcAuthenticator(options.oidc));
    methods.push('oidc');
  }
  for (const t of options.tokenAuthenticators ?? []) otherTokens.push(t);
  if ((options.tokenAuthenticators?.length ?? 0) > 0) methods.push('token-plugins');

  const tokenAuthenticators = [
    ...staticTokens,
    ...(saAuthenticator ? [saAuthenticator] : []),
    ...otherTokens,
  ];
  if (tokenAuthenticators.length > 0)
    authenticators.push(createBearerTokenAuthenticator(tokenAuthenticators));
  for (const a of options.authenticators ?? []) authenticators.push(a);
  const anonymous = options.anonymous ?? { enabled: true };
  if (anonymous.enabled) methods.push('anonymous');

  const union = createUnionAuthenticator({
    authenticators,
    anonymous,
    ...(input.onFailure ? { onFailure: input.onFailure } : {}),
  });

  async function reviewToken(token: string, requested: readonly string[]): Promise<TokenReviewOutcome> {
    const wanted = requested.length > 0 ? requested : apiAudiences;
    // Audience-aware methods (service accounts) check the requested audiences themselves; the
    // others are valid for the API audiences only, so they answer only when those were asked for.
    const implicit = wanted.filter((a) => apiAudiences.includes(a));
    const saForReview = requested.length > 0 ? serviceAccountAuthenticator(wanted) : saAuthenticator;
    const chain: TokenAuthenticator[] = [
      ...(implicit.length > 0 || apiAudiences.length === 0 ? staticTokens : []),
      ...(saForReview ? [saForReview] : []),
      ...(implicit.length > 0 || apiAudiences.length === 0 ? otherTokens : []),
    ];
    let firstError: string | undefined;
    for (const t of chain) {
      let r: AuthenticationResult;
      try {
        r = await t.authenticateToken(token);
      } catch (e) {
        firstError ??= (e as { detail?: string }).detail ?? (e as Error).message;
        continue;
      }
      if (r.kind !== 'user') continue;
      const groups = r.user.groups.includes('system:authenticated')
        ? [...r.user.groups]
        : [...r.user.groups, 'system:authenticated'];
      const audiences = r.audiences ? r.audiences.filter((a) => wanted.includes(a)) : implicit;
      if (requested.length > 0 && audiences.length === 0) {
        firstError ??= 'token audiences do not match';
        continue;
      }
      return { authenticated: true, user: { ...r.user, groups }, audiences };
    }
    if (firstError !== undefined) input.onFailure?.(firstError);
    return {
      authenticated: false,
      error: firstError === undefined ? 'token not recognised' : 'invalid bearer token',
    };
  }

  const signer =
    sa?.signingKey && sa.issuers[0]
      ? createServiceAccountTokenSigner({
          key: sa.signingKey,
          issuer: sa.issuers[0],
          domain: identityDomain(flavor),
        })
      : undefined;

  return {
    union,
    readClientCertificate,
    reviewToken,
    signer,
    apiAudiences,
    maxTokenExpirationSeconds: sa?.maxExpirationSeconds,
    methods,
  };
}
