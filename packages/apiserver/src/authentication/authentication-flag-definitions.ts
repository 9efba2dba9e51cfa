/**
 * The authentication flags' definitions: names and value types (upstream's), boolean-flag
 * normalisation, and the usage text. Reading their values is `authentication-flags.ts`.
 */

/** The authentication flags, with upstream's names (`parseArgs` options; booleans take `=true|false`). */
export const authenticationFlagOptions = {
  'anonymous-auth': { type: 'string' },
  'client-ca-file': { type: 'string' },
  'token-auth-file': { type: 'string' },
  'enable-bootstrap-token-auth': { type: 'string' },
  'service-account-key-file': { type: 'string', multiple: true },
  'service-account-signing-key-file': { type: 'string' },
  'service-account-issuer': { type: 'string', multiple: true },
  'service-account-lookup': { type: 'string' },
  'service-account-max-token-expiration': { type: 'string' },
  'api-audiences': { type: 'string' },
  'oidc-issuer-url': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-username-claim': { type: 'string' },
  'oidc-username-prefix': { type: 'string' },
  'oidc-groups-claim': { type: 'string' },
  'oidc-groups-prefix': { type: 'string' },
  'oidc-required-claim': { type: 'string', multiple: true },
  'oidc-ca-file': { type: 'string' },
  'oidc-signing-algs': { type: 'string' },
  'requestheader-client-ca-file': { type: 'string' },
  'requestheader-allowed-names': { type: 'string' },
  'requestheader-username-headers': { type: 'string' },
  'requestheader-uid-headers': { type: 'string' },
  'requestheader-group-headers': { type: 'string' },
  'requestheader-extra-headers-prefix': { type: 'string' },
  'authentication-config': { type: 'string' },
  'authentication-token-webhook-config-file': { type: 'string' },
  'authentication-token-webhook-cache-ttl': { type: 'string' },
  'authentication-token-webhook-version': { type: 'string' },
} as const;

const booleanFlags = ['anonymous-auth', 'enable-bootstrap-token-auth', 'service-account-lookup'];

/** A bare boolean flag (`--anonymous-auth`) means `=true`, as Go's flag package reads it. */
export function normalizeBooleanFlags(argv: readonly string[]): string[] {
  return argv.map((a) =>
    booleanFlags.includes(a.replace(/^--/, '')) && a.startsWith('--') ? `${a}=true` : a,
  );
}

export const authenticationFlagsUsage = `Authentication (doc 2 §5; off unless given, except client certificates and anonymous):
  --client-ca-file FILE  CA bundle for client certificates (default: the generated CA)
  --token-auth-file FILE static tokens, CSV token,user,uid[,"group1,group2"]
  --enable-bootstrap-token-auth  bootstrap tokens (Secrets bootstrap-token-<id> in the system namespace)
  --service-account-key-file FILE   PEM keys verifying service-account tokens (repeatable)
  --service-account-signing-key-file FILE  PEM private key signing TokenRequest tokens (default: one
                         generated next to the kubeconfig and reused)
  --service-account-issuer URL  issuer of new tokens; repeat to accept more (default
                         https://kubernetes.default.svc.cluster.local, orch: https://orch.default.svc.cluster.local)
  --service-account-lookup=BOOL  tokens of deleted accounts or bound objects stop working (default true)
  --service-account-max-token-expiration D  longest TokenRequest lifetime (default none)
  --api-audiences LIST   audiences tokens must carry for this server (default: the issuers)
  --oidc-issuer-url URL, --oidc-client-id ID, --oidc-username-claim C (default sub),
  --oidc-username-prefix P, --oidc-groups-claim C, --oidc-groups-prefix P,
  --oidc-required-claim K=V (repeatable), --oidc-ca-file FILE, --oidc-signing-algs LIST (default RS256)
  --requestheader-client-ca-file FILE  CA of the authenticating proxy's client certificate
  --requestheader-allowed-names LIST   proxy certificate common names (default: any)
  --requestheader-username-headers LIST (default X-Remote-User), --requestheader-uid-headers LIST,
  --requestheader-group-headers LIST (default X-Remote-Group),
  --requestheader-extra-headers-prefix LIST (default X-Remote-Extra-)
  --anonymous-auth=BOOL  requests without credentials are system:anonymous (default true; until an
                         authorizer is configured they reach only /version, /livez, /readyz, /healthz)
  --authentication-config FILE  AuthenticationConfiguration (structured JWT authenticators, anonymous
                         paths); reloaded when the file changes; not with --oidc-* flags
  --authentication-token-webhook-config-file FILE  kubeconfig of a TokenReview webhook
  --authentication-token-webhook-cache-ttl D  how long webhook answers are reused (default 2m0s)
  --authentication-token-webhook-version v1|v1beta1  TokenReview version sent (default v1)
`;
