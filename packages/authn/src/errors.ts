import { hasBrand } from '@orchard/meta/internal';
/** Why authentication or an authenticator's configuration failed. */
export type AuthnErrorCode =
  /** A credential was presented and rejected; the server answers 401 and says nothing more. */
  | 'Unauthorized'
  /** A configuration input (flag, file, line, field) is invalid; a start-up error naming it. */
  | 'InvalidConfiguration';

const brand = Symbol.for('@orchard/authn.AuthnError');

/** The package's error. `message` of an `Unauthorized` error is safe to send; `detail` is for logs only. */
export class AuthnError extends Error {
  readonly code: AuthnErrorCode;
  /** Which check failed (log only: the 401 must not tell the caller). */
  readonly detail: string | undefined;
  readonly [brand] = true;
  constructor(code: AuthnErrorCode, message: string, detail?: string) {
    super(message);
    this.name = 'AuthnError';
    this.code = code;
    this.detail = detail;
  }
}

/** Recognises an AuthnError from any copy of the package (no `instanceof`). */
export function isAuthnError(e: unknown, ...codes: AuthnErrorCode[]): e is AuthnError {
  if (!hasBrand(e, brand)) return false;
  return codes.length === 0 || codes.includes((e as AuthnError).code);
}

/** The one 401 every method throws: the message never names the failed check. */
export function unauthorized(detail: string): AuthnError {
  return new AuthnError('Unauthorized', 'Unauthorized', detail);
}

export function invalidConfiguration(message: string): AuthnError {
  return new AuthnError('InvalidConfiguration', message);
}
