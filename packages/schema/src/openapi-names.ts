/**
 * The names the OpenAPI documents use: component names of kinds and meta types (upstream's Go
 * package paths under the flavor's reversed domain) and the group-version keys of the v3 index.
 */
import type { Flavor } from '@orchard/meta';

function reverseDomain(d: string): string {
  return d.split('.').reverse().join('.');
}

/**
 * The component name of a kind: `io.k8s.api.core.v1.ConfigMap` for built-ins under the
 * kubernetes flavor (`io.orch.api.core.v1.ConfigMap` under orch), the reversed group for custom
 * resources (`com.example.v1.Widget`).
 */
export function schemaName(
  flavor: Flavor,
  group: string,
  version: string,
  kind: string,
  builtin: boolean,
): string {
  const root = reverseDomain(flavor.domain);
  if (!builtin) return `${reverseDomain(group)}.${version}.${kind}`;
  const prefix =
    group === ''
      ? 'core'
      : group.endsWith(`.${flavor.domain}`)
        ? group.slice(0, -flavor.domain.length - 1)
        : group;
  if (prefix === 'apiextensions')
    return `${root}.apiextensions-apiserver.pkg.apis.apiextensions.${version}.${kind}`;
  // Upstream's Go package for `rbac.authorization.k8s.io` is `k8s.io/api/rbac`.
  if (prefix === 'rbac.authorization') return `${root}.api.rbac.${version}.${kind}`;
  return `${root}.api.${prefix}.${version}.${kind}`;
}

/** The component name of an apimachinery meta/v1 type (`io.k8s.apimachinery.pkg.apis.meta.v1.Status`). */
export function metaName(flavor: Flavor, type: string): string {
  return `${reverseDomain(flavor.domain)}.apimachinery.pkg.apis.meta.v1.${type}`;
}

/** `api/v1` or `apis/apps/v1`: the key of a group version in the `/openapi/v3` index. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}
