/** A group, version and kind. The core group is the empty string. */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** A group, version and resource (the plural name used in URLs). */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** An API group and version (`""` is the core group). */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** `v1` → core group; `apps/v1` → group `apps`. */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** `group/version`, or `version` alone for the core group. */
export function formatApiVersion(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** `apps/v1, Kind=Deployment`, the form upstream error messages use. */
export function formatGvk(gvk: GroupVersionKind): string {
  return `${formatApiVersion(gvk)}, Kind=${gvk.kind}`;
}

/** `deployments.apps`, the form used in error messages and RBAC. */
export function formatGroupResource(gr: { group: string; resource: string }): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}
