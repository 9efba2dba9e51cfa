/**
 * The authorizer library (doc 2 §2.10 item 3), backed by the `Authorizer` interface that the
 * authorization package implements:
 *
 *   authorizer.group('apps').resource('deployments').subresource('scale')
 *     .namespace('default').name('web').check('update').allowed()
 *   authorizer.path('/healthz').check('get').reason()
 *   authorizer.serviceAccount('default', 'builder').group('').resource('pods').check('list')
 *
 * `.fieldSelector(s)` / `.labelSelector(s)` on a resource check exist only with the feature gate
 * `AuthorizeWithSelectors`.
 */
import type { Environment } from '@marcbachmann/cel-js';
import type { ParsedFieldSelector, ParsedLabelSelector } from '@orchard/meta';
import { parseFieldSelector, parseLabelSelector } from '@orchard/meta';
import { evalError } from './values.js';

/** The user a check is made for. */
export interface AuthorizerUserInfo {
  username: string;
  uid?: string;
  groups?: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

/** What is asked: the attributes of one access (a resource request or a non-resource path). */
export interface AuthorizationAttributes {
  user: AuthorizerUserInfo;
  verb: string;
  resourceRequest: boolean;
  /** Non-resource requests: the path. */
  path?: string;
  apiGroup?: string;
  /** Always `'*'` for checks made from CEL (any version). */
  apiVersion?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** With the gate `AuthorizeWithSelectors`: the parsed field selector of the check. */
  fieldSelector?: { rawSelector: string; parsed: ParsedFieldSelector };
  /** With the gate `AuthorizeWithSelectors`: the parsed label selector of the check. */
  labelSelector?: { rawSelector: string; parsed: ParsedLabelSelector };
}

/**
 * The outcome of one authorizer check made from an expression: `allow`, `deny`, or `noOpinion` (no authorizer
 * decided, which `allowed()` reads as not allowed).
 */
export type AuthorizerDecision = 'allow' | 'deny' | 'noOpinion';

/**
 * What the host's authorizer callback returns for one check made from an expression
 * (`authorizer.path(…).check(verb)` or a resource check): the decision, its human-readable `reason`, and an
 * `error` when no decision could be reached.
 */
export interface AuthorizerResult {
  decision: AuthorizerDecision;
  reason: string;
  /** Set when the authorizer failed to reach a decision (the decision is then not `allow`). */
  error?: string;
}

/**
 * Decides one access. Implemented by the authorization package. Called synchronously while an
 * expression runs, so an implementation that needs I/O answers from its cache (or denies with an
 * error); it must not throw.
 */
export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizerResult;
}

/** The `authorizer` variable of an expression: an `Authorizer` bound to the requesting user. */
export class CelAuthorizer {
  constructor(
    readonly authorizer: Authorizer,
    readonly user: AuthorizerUserInfo,
  ) {}
}

/** The value to bind to the `authorizer` variable (its CEL type is `Authorizer`). */
export function createAuthorizerValue(authorizer: Authorizer, user: AuthorizerUserInfo): CelAuthorizer {
  return new CelAuthorizer(authorizer, user);
}

export class CelPathCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly path: string,
  ) {}
}

export class CelGroupCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
  ) {}
}

interface ResourceFields {
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector: string;
  labelSelector: string;
}

export class CelResourceCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
    readonly fields: Readonly<ResourceFields>,
  ) {}
  with(patch: Partial<ResourceFields>): CelResourceCheck {
    return new CelResourceCheck(this.authz, this.group, { ...this.fields, ...patch });
  }
}

export class CelDecision {
  constructor(
    readonly decision: AuthorizerDecision,
    readonly reason: string,
    readonly error: string,
  ) {}
}

function decide(authz: CelAuthorizer, attrs: Omit<AuthorizationAttributes, 'user'>): CelDecision {
  try {
    const r = authz.authorizer.authorize({ ...attrs, user: authz.user });
    return new CelDecision(r.decision, r.reason ?? '', r.error ?? '');
  } catch (e) {
    return new CelDecision('noOpinion', '', (e as Error).message ?? String(e));
  }
}

function checkResource(rc: CelResourceCheck, verb: string): CelDecision {
  const f = rc.fields;
  const attrs: Omit<AuthorizationAttributes, 'user'> = {
    verb,
    resourceRequest: true,
    apiGroup: rc.group,
    apiVersion: '*',
    resource: f.resource,
    subresource: f.subresource,
    namespace: f.namespace,
    name: f.name,
  };
  try {
    if (f.fieldSelector !== '')
      attrs.fieldSelector = { rawSelector: f.fieldSelector, parsed: parseFieldSelector(f.fieldSelector) };
    if (f.labelSelector !== '')
      attrs.labelSelector = { rawSelector: f.labelSelector, parsed: parseLabelSelector(f.labelSelector) };
  } catch (e) {
    return new CelDecision('noOpinion', '', `invalid selector: ${(e as Error).message}`);
  }
  return decide(rc.authz, attrs);
}

const saPrefix = 'system:serviceaccount:';

export function registerAuthorizer(env: Environment, gates: { AuthorizeWithSelectors: boolean }): void {
  env.registerType('Authorizer', CelAuthorizer);
  env.registerType('PathCheck', CelPathCheck);
  env.registerType('GroupCheck', CelGroupCheck);
  env.registerType('ResourceCheck', CelResourceCheck);
  env.registerType('Decision', CelDecision);
  env.registerFunction(
    'Authorizer.path(string): PathCheck',
    (a: CelAuthorizer, p: string) => new CelPathCheck(a, p),
  );
  env.registerFunction(
    'Authorizer.group(string): GroupCheck',
    (a: CelAuthorizer, g: string) => new CelGroupCheck(a, g),
  );
  env.registerFunction(
    'Authorizer.serviceAccount(string, string): Authorizer',
    (a: CelAuthorizer, ns: string, name: string) => {
      if (ns === '' || name === '')
        throw evalError('serviceAccount: namespace and name must not be empty', 'invalid_argument');
      return new CelAuthorizer(a.authorizer, {
        username: `${saPrefix}${ns}:${name}`,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
      });
    },
  );
  env.registerFunction(
    'GroupCheck.resource(string): ResourceCheck',
    (g: CelGroupCheck, r: string) =>
      new CelResourceCheck(g.authz, g.group, {
        resource: r,
        subresource: '',
        namespace: '',
        name: '',
        fieldSelector: '',
        labelSelector: '',
      }),
  );
  env.registerFunction('ResourceCheck.subresource(string): ResourceCheck', (r: CelResourceCheck, s: string) =>
    r.with({ subresource: s }),
  );
  env.registerFunction('ResourceCheck.namespace(string): ResourceCheck', (r: CelResourceCheck, s: string) =>
    r.with({ namespace: s }),
  );
  env.registerFunction('ResourceCheck.name(string): ResourceCheck', (r: CelResourceCheck, s: string) =>
    r.with({ name: s }),
  );
  if (gates.AuthorizeWithSelectors) {
    env.registerFunction(
      'ResourceCheck.fieldSelector(string): ResourceCheck',
      (r: CelResourceCheck, s: string) => r.with({ fieldSelector: s }),
    );
    env.registerFunction(
      'ResourceCheck.labelSelector(string): ResourceCheck',
      (r: CelResourceCheck, s: string) => r.with({ labelSelector: s }),
    );
  }
  env.registerFunction('ResourceCheck.check(string): Decision', (r: CelResourceCheck, verb: string) =>
    checkResource(r, verb),
  );
  env.registerFunction('PathCheck.check(string): Decision', (p: CelPathCheck, verb: string) =>
    decide(p.authz, { verb, resourceRequest: false, path: p.path }),
  );
  env.registerFunction('Decision.allowed(): bool', (d: CelDecision) => d.decision === 'allow');
  env.registerFunction('Decision.reason(): string', (d: CelDecision) => d.reason);
  env.registerFunction('Decision.errored(): bool', (d: CelDecision) => d.error !== '');
  env.registerFunction('Decision.error(): string', (d: CelDecision) => d.error);
}
