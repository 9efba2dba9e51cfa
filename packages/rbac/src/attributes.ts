/**
 * What RBAC reads of a request (spec doc 2 §5.3): a resource request (verb, API group with `""` for
 * core, resource, sub-resource, namespace, name) or a non-resource request (lower-case HTTP verb and
 * path). The authorizer layer (@orchard/authz) builds these from HTTP; RBAC only matches them.
 */
export interface ResourceAttributes {
  readonly resourceRequest: true;
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource?: string;
  /** `""` for cluster-scoped requests and for requests across all namespaces. */
  readonly namespace?: string;
  /**
   * The object name; for `list`/`watch` the value of a `metadata.name=<x>` field selector
   * (`nameFromFieldSelector`), so `resourceNames` rules can allow it.
   */
  readonly name?: string;
}

/**
 * A request for a path outside the API resources (`/healthz`, `/version`, `/apis`): `verb` is the lower-case
 * HTTP method (`get`, `post`, …) and `path` the URL path without the query.
 */
export interface NonResourceAttributes {
  readonly resourceRequest: false;
  readonly verb: string;
  readonly path: string;
}

/**
 * What RBAC matches a request by: a resource request or a non-resource request, told apart by
 * `resourceRequest`.
 */
export type RbacAttributes = ResourceAttributes | NonResourceAttributes;

/**
 * The name a list/watch is restricted to by its field selector: `metadata.name=x` or `metadata.name==x`
 * as one of the comma-separated terms; `undefined` when there is none (then `resourceNames` cannot allow it).
 */
export function nameFromFieldSelector(fieldSelector: string | undefined | null): string | undefined {
  if (!fieldSelector) return undefined;
  let found: string | undefined;
  for (const term of fieldSelector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (!m || m[1] === undefined) continue;
    if (found !== undefined && found !== m[1]) return undefined;
    found = m[1];
  }
  return found === '' ? undefined : found;
}
