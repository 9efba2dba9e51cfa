import { type Authorizer, alwaysAllowAuthorizer } from '@orchard/authz';
import type { ServerAuthentication } from '../authentication/server-authentication.js';
import type { ApiServerOptions } from '../options.js';
import { admissionFilter } from './admission.js';
import { auditFilter, type ServerAudit } from './audit.js';
import { authenticationFilter, createFixedAuthenticator } from './authentication.js';
import { authorizationFilter } from './authorization.js';
import { composeFilters, type FilterHandler } from './filter.js';
import { impersonationFilter, mastersOnlyImpersonationAuthorizer } from './impersonation.js';
import { requestLimitsFilter } from './request-limits.js';
import { requestTimeoutFilter } from './request-timeout.js';

/** What the filters of one server read: its options and the authentication, audit and authorizers it built. */
export interface FilterChainInput {
  readonly options: ApiServerOptions;
  /** Undefined in insecure mode (every request is `options.insecureUser`). */
  readonly authentication: ServerAuthentication | undefined;
  /** The configured authorizer chain (impersonation checks, anonymous handling). */
  readonly authorizer: Authorizer;
  /** The authorizer requests are decided by (waits for RBAC to load). */
  readonly requestAuthorizer: Authorizer;
  readonly audit: ServerAudit | undefined;
  readonly nodeRestriction: boolean;
}

/**
 * The chain every request runs before the router, in upstream's order: authentication → audit →
 * request limits → request timeout → impersonation → authorization → admission.
 */
export function createFilterChain(input: FilterChainInput, handler: FilterHandler): FilterHandler {
  const { options, authentication, authorizer } = input;
  const authenticator =
    options.authenticator ?? authentication?.union ?? createFixedAuthenticator(options.insecureUser);
  return composeFilters(
    [
      authenticationFilter(authenticator, {
        ...(authentication ? { readClientCertificate: authentication.readClientCertificate } : {}),
        authorizerDecidesAnonymous: authorizer !== alwaysAllowAuthorizer,
      }),
      // As upstream: after authentication, before impersonation and limits, so refusals are audited.
      auditFilter(input.audit),
      requestLimitsFilter(options),
      requestTimeoutFilter(options.requestTimeoutMs),
      impersonationFilter(
        authorizer === alwaysAllowAuthorizer ? mastersOnlyImpersonationAuthorizer : authorizer,
        options.flavor,
      ),
      authorizationFilter(input.requestAuthorizer),
      admissionFilter({ nodeRestriction: input.nodeRestriction }),
    ],
    handler,
  );
}
