/**
 * The caller's identity (spec doc 2 §2.1), as authenticators produce it and authorizers, admission and
 * review resources read it. Lives in meta because authn, authz and the server all speak it.
 */
export interface UserInfo {
  /** Identifies the end user; opaque to authentication. */
  readonly username: string;
  /** More consistent and unique than the name; empty or absent when the method has none. */
  readonly uid?: string;
  /** Logical user sets; every authenticated user also carries `system:authenticated`. */
  readonly groups: readonly string[];
  /** Extra data for authorizers (keys are lower-case, domain-prefixed by convention). */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}
