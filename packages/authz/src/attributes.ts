/**
 * What an authorizer is asked about (spec doc 2 §5.3, upstream `authorizer.Attributes`): who, which
 * verb, and either a resource (API group with `""` for core, version, resource, sub-resource,
 * namespace, name) or a non-resource `path` with the lower-case HTTP method as verb.
 */
import type { UserInfo } from '@orchard/meta';
import { nameFromFieldSelector, type RbacAttributes } from '@orchard/rbac';

/**
 * One request as every authorizer sees it: the user, the verb, and either the resource fields
 * (`isResourceRequest` true) or the non-resource `path`; string fields that do not apply are `""`.
 * Authorizers read it and must not mutate it.
 */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  /** A spec verb for resource requests (`requestVerb`); the lower-case HTTP method for non-resource requests. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** The request path (what non-resource rules match). */
  readonly path: string;
  /** `""` is the core group. */
  readonly apiGroup: string;
  readonly apiVersion: string;
  /** `""` for cluster-scoped requests and for requests across all namespaces. */
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /**
   * The raw `fieldSelector`/`labelSelector` of a list, watch or deletecollection, present only when
   * the `AuthorizeWithSelectors` gate is on (beta, default on in 1.32): webhooks and reviews see them.
   */
  readonly fieldSelector?: string;
  readonly labelSelector?: string;
}

const methodVerbs: Readonly<Record<string, string>> = Object.freeze({
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
});

/**
 * The verb of a resource request (spec doc 2 §5.3): POST `create`; GET and HEAD `get` for one object,
 * `list` for a collection, `watch` with `watch`; PUT `update`; PATCH `patch`; DELETE `delete` for one
 * object, `deletecollection` for a collection. Any other method is its lower-case name.
 */
export function requestVerb(
  method: string,
  target: { readonly hasName: boolean; readonly watch: boolean },
): string {
  const verb = methodVerbs[method.toUpperCase()] ?? method.toLowerCase();
  if (verb === 'get') {
    if (target.watch) return 'watch';
    return target.hasName ? 'get' : 'list';
  }
  if (verb === 'delete' && !target.hasName) return 'deletecollection';
  return verb;
}

/** Verbs that only read (upstream `IsReadOnly`): ABAC's `readonly` policies allow exactly these. */
export function isReadOnlyVerb(verb: string): boolean {
  return verb === 'get' || verb === 'list' || verb === 'watch';
}

/**
 * What RBAC matches: for a `list`/`watch` without a name, the name of a `metadata.name` field
 * selector, so `resourceNames` rules can allow it (spec doc 2 §2.3).
 */
export function toRbacAttributes(a: AuthorizationAttributes): RbacAttributes {
  if (!a.isResourceRequest) return { resourceRequest: false, verb: a.verb, path: a.path };
  let name = a.name;
  if (name === '' && (a.verb === 'list' || a.verb === 'watch'))
    name = nameFromFieldSelector(a.fieldSelector) ?? '';
  return {
    resourceRequest: true,
    verb: a.verb,
    apiGroup: a.apiGroup,
    resource: a.resource,
    subresource: a.subresource,
    namespace: a.namespace,
    name,
  };
}

/**
 * Attributes built from the fields given, every other string field `""` and `isResourceRequest`
 * false unless set: for a check made by hand (tests, CEL, reviews). Returns a new object.
 */
export function authorizationAttributes(
  fields: Pick<AuthorizationAttributes, 'user' | 'verb'> & Partial<AuthorizationAttributes>,
): AuthorizationAttributes {
  return {
    isResourceRequest: false,
    path: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    ...fields,
  };
}
