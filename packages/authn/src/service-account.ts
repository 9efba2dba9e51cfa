import { fromBase64 } from '@orchard/meta/internal';
import {
  type CryptoKey,
  decodeProtectedHeader,
  type JWTPayload,
  jwtVerify,
  type KeyObject,
  SignJWT,
} from 'jose';
import {
  type AuthenticationResult,
  noOpinion,
  type TokenAuthenticator,
  userResult,
} from './authenticator.js';
import { unauthorized } from './errors.js';

/** A verification or signing key with the one algorithm it may be used with (algorithm pinning). */
export interface PinnedKey {
  readonly key: CryptoKey | KeyObject;
  /** `RS256`, `ES256`, `ES384` or `ES512`. */
  readonly alg: string;
  readonly kid?: string;
}

/** The private claims of a service-account token (doc 2 §2.3). */
export interface ServiceAccountClaims {
  readonly namespace: string;
  readonly serviceaccount: { readonly name: string; readonly uid: string };
  readonly pod?: { readonly name: string; readonly uid: string };
  readonly secret?: { readonly name: string; readonly uid: string };
  readonly node?: { readonly name: string; readonly uid: string };
}

/** What `--service-account-lookup` needs: the live account and bound objects. */
export interface ServiceAccountLookup {
  /** The account's uid, or undefined when it does not exist (or is being deleted). */
  getServiceAccountUid(namespace: string, name: string): Promise<string | undefined>;
  /** The bound object's uid (kind `Pod`, `Secret` or `Node`), or undefined when gone. */
  getBoundObjectUid?(
    kind: 'Pod' | 'Secret' | 'Node',
    namespace: string,
    name: string,
  ): Promise<string | undefined>;
}

/**
 * Options of the service-account token authenticator: the verification keys and accepted issuers are
 * required; audiences, lookup, domain and clock tolerance default as each field says.
 */
export interface ServiceAccountTokenAuthenticatorOptions {
  /** `--service-account-key-file` keys (each pinned to its algorithm). */
  readonly keys: readonly PinnedKey[];
  /** `--service-account-issuer` values accepted (the first one is what the signer writes). */
  readonly issuers: readonly string[];
  /** Accepted audiences; default the issuers (upstream's `--api-audiences` default). */
  readonly audiences?: readonly string[];
  /** `--service-account-lookup`; omitted = no lookup. */
  readonly lookup?: ServiceAccountLookup;
  /** The flavor's domain for the private claim (`kubernetes.io`). */
  readonly domain?: string;
  /** Seconds of clock skew tolerated. Default 60, as upstream. */
  readonly clockToleranceSeconds?: number;
  readonly now?: () => number;
}

function claimsOf(payload: JWTPayload, domain: string): ServiceAccountClaims | undefined {
  const c = (payload as Record<string, unknown>)[domain] as ServiceAccountClaims | undefined;
  if (!c || typeof c !== 'object' || typeof c.namespace !== 'string') return undefined;
  const sa = c.serviceaccount;
  if (!sa || typeof sa.name !== 'string' || typeof sa.uid !== 'string') return undefined;
  return c;
}

/**
 * Service-account JWTs: signature by one of the keys with that key's algorithm only (an `alg: none`
 * or HS256 token signed with the public key is refused), issuer, audience, `exp`/`nbf`, the private
 * claim, and with lookup the account's and bound object's uids. A token that is not a JWT of one of our
 * issuers is "no opinion" so that other JWT methods may try it.
 */
export function createServiceAccountTokenAuthenticator(
  options: ServiceAccountTokenAuthenticatorOptions,
): TokenAuthenticator {
  const domain = options.domain ?? 'kubernetes.io';
  const audiences = options.audiences ?? options.issuers;
  const tolerance = options.clockToleranceSeconds ?? 60;
  const now = options.now ?? Date.now;
  const issuers = new Set(options.issuers);
  return {
    async authenticateToken(token): Promise<AuthenticationResult> {
      if (token.split('.').length !== 3) return noOpinion;
      let payloadIssuer: unknown;
      let header: { alg?: string; kid?: string };
      try {
        header = decodeProtectedHeader(token);
        const body = token.split('.')[1]!;
        const bytes = fromBase64(body.replace(/-/g, '+').replace(/_/g, '/'));
        if (!bytes) return noOpinion;
        const json = new TextDecoder().decode(bytes);
        payloadIssuer = (JSON.parse(json) as { iss?: unknown }).iss;
      } catch {
        return noOpinion;
      }
      if (typeof payloadIssuer !== 'string' || !issuers.has(payloadIssuer)) return noOpinion;
      const candidates = options.keys.filter(
        (k) =>
          k.alg === header.alg && (header.kid === undefined || k.kid === undefined || k.kid === header.kid),
      );
      if (candidates.length === 0) throw unauthorized('service account token: no key for its algorithm');
      let payload: JWTPayload | undefined;
      let lastError: unknown;
      for (const k of candidates) {
        try {
          const r = await jwtVerify(token, k.key, {
            algorithms: [k.alg],
            issuer: [...issuers],
            audience: [...audiences],
            clockTolerance: tolerance,
            currentDate: new Date(now()),
            requiredClaims: ['exp', 'sub'],
          });
          payload = r.payload;
          break;
        } catch (e) {
          lastError = e;
        }
      }
      if (!payload)
        throw unauthorized(`service account token: ${(lastError as Error)?.message ?? 'invalid'}`);
      const c = claimsOf(payload, domain);
      if (!c) throw unauthorized('service account token: missing private claims');
      if (payload.sub !== `system:serviceaccount:${c.namespace}:${c.serviceaccount.name}`) {
        throw unauthorized('service account token: subject does not match its claims');
      }
      if (options.lookup) {
        const uid = await options.lookup.getServiceAccountUid(c.namespace, c.serviceaccount.name);
        if (uid !== c.serviceaccount.uid)
          throw unauthorized('service account token: account deleted or recreated');
        for (const kind of ['Pod', 'Secret', 'Node'] as const) {
          const ref = kind === 'Pod' ? c.pod : kind === 'Secret' ? c.secret : c.node;
          if (!ref) continue;
          const got = await options.lookup.getBoundObjectUid?.(
            kind,
            kind === 'Node' ? '' : c.namespace,
            ref.name,
          );
          if (got !== ref.uid) throw unauthorized(`service account token: bound ${kind} deleted`);
        }
      }
      const extra: Record<string, string[]> = {};
      if (c.pod) {
        extra[`authentication.${domain}/pod-name`] = [c.pod.name];
        extra[`authentication.${domain}/pod-uid`] = [c.pod.uid];
      }
      if (c.node) {
        extra[`authentication.${domain}/node-name`] = [c.node.name];
        extra[`authentication.${domain}/node-uid`] = [c.node.uid];
      }
      if (typeof payload.jti === 'string')
        extra[`authentication.${domain}/credential-id`] = [`JTI=${payload.jti}`];
      const aud = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
      return userResult(
        {
          username: `system:serviceaccount:${c.namespace}:${c.serviceaccount.name}`,
          uid: c.serviceaccount.uid,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${c.namespace}`],
          ...(Object.keys(extra).length ? { extra } : {}),
        },
        aud.filter((a) => audiences.includes(a)),
      );
    },
  };
}

/**
 * What to sign a service-account token for (a TokenRequest): the account by namespace, name and uid, the
 * audiences and lifetime (defaults on each field), and optionally the Pod, Secret or Node it is bound to
 * (lookup then checks its uid).
 */
export interface ServiceAccountTokenRequest {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** Default: the signer's issuer. */
  readonly audiences?: readonly string[];
  /** Default 3600; TokenRequest's `expirationSeconds`. */
  readonly expirationSeconds?: number;
  readonly boundObject?: {
    readonly kind: 'Pod' | 'Secret' | 'Node';
    readonly name: string;
    readonly uid: string;
  };
}

/** Signs service-account tokens with `--service-account-signing-key-file`. */
export function createServiceAccountTokenSigner(options: {
  readonly key: PinnedKey;
  readonly issuer: string;
  readonly domain?: string;
  readonly now?: () => number;
}) {
  const domain = options.domain ?? 'kubernetes.io';
  const now = options.now ?? Date.now;
  return {
    /** Signs and returns the token with its expiry (epoch milliseconds). */
    async sign(req: ServiceAccountTokenRequest): Promise<{ token: string; expiresAt: number }> {
      const iat = Math.floor(now() / 1000);
      const exp = iat + (req.expirationSeconds ?? 3600);
      const claims: Record<string, unknown> = {
        namespace: req.namespace,
        serviceaccount: { name: req.name, uid: req.uid },
      };
      if (req.boundObject)
        claims[req.boundObject.kind.toLowerCase()] = { name: req.boundObject.name, uid: req.boundObject.uid };
      const jwt = new SignJWT({ [domain]: claims })
        .setProtectedHeader(
          options.key.kid ? { alg: options.key.alg, kid: options.key.kid } : { alg: options.key.alg },
        )
        .setIssuer(options.issuer)
        .setSubject(`system:serviceaccount:${req.namespace}:${req.name}`)
        .setAudience([...(req.audiences ?? [options.issuer])])
        .setIssuedAt(iat)
        .setNotBefore(iat)
        .setExpirationTime(exp)
        .setJti(crypto.randomUUID());
      return { token: await jwt.sign(options.key.key), expiresAt: exp * 1000 };
    },
  };
}
