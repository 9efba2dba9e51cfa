import { type Authenticator, noOpinion, userResult } from './authenticator.js';

/**
 * Options of `createX509Authenticator`: which verified CA bundle client certificates must come from (default
 * `client-ca`).
 */
export interface X509AuthenticatorOptions {
  /** The CA bundle name the transport records in `verifiedBy` for `--client-ca-file`. Default `client-ca`. */
  readonly caName?: string;
}

/** The default of `X509AuthenticatorOptions`: certificates verified by the `client-ca` bundle. Frozen. */
export const defaultX509AuthenticatorOptions: Readonly<Required<X509AuthenticatorOptions>> = Object.freeze({
  caName: 'client-ca',
});

/** Client certificates (`--client-ca-file`): CN is the user, each O a group (doc 2 §2.1). */
export function createX509Authenticator(options: X509AuthenticatorOptions = {}): Authenticator {
  const o = { ...defaultX509AuthenticatorOptions, ...options };
  return {
    async authenticate(request) {
      const c = request.clientCertificate;
      if (!c?.verifiedBy.includes(o.caName) || c.commonName === '') return noOpinion;
      return userResult({ username: c.commonName, groups: [...c.organizations] });
    },
  };
}
