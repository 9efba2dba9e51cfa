/**
 * The default roles and bindings (spec doc 2 §5.3), generated from upstream's 1.32 golden policy
 * (`upstream-policy.json`, a JSON copy of `reference/rbac-bootstrap/*.yaml` without creationTimestamp)
 * and translated to a flavor's identifiers: `*.k8s.io` groups → `*.<domain>`, `kubernetes.io/` keys and
 * signer names → `<domain>/`, `kube-system`/`kube-public` → the flavor's namespaces, and
 * `system:kube-<x>` users → `system:<product>-<x>`. For the kubernetes flavor it is the data unchanged.
 */
import type { Flavor } from '@orchard/meta';
import { cloneJson } from '@orchard/meta/internal';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../types.js';
import upstream from './upstream-policy.json' with { type: 'json' };

/**
 * The default roles and bindings a server creates at start-up, as returned by `defaultPolicy(flavor)`: fresh
 * arrays of fresh objects on every call, so a caller may mutate them.
 */
export interface DefaultPolicy {
  readonly clusterRoles: ClusterRole[];
  readonly clusterRoleBindings: ClusterRoleBinding[];
  readonly roles: Role[];
  readonly roleBindings: RoleBinding[];
}

function translator(flavor: Flavor): (s: string) => string {
  if (flavor.domain === 'k8s.io') return (s) => s;
  const product = flavor.namespaceFinalizer;
  const nsPrefix = flavor.systemNamespace.replace(/-system$/, '');
  const translate = (s: string): string => {
    if (s === 'kube-system') return flavor.systemNamespace;
    if (s === 'kube-public') return flavor.publicNamespace;
    let t = s.replace(/\.k8s\.io(?=$|\/|:)/g, `.${flavor.domain}`);
    t = t.replace(/(^|\.)kubernetes\.io\//g, `$1${flavor.domain}/`);
    t = t.replace(/^rbac\.authorization\.kubernetes\.io\//, `rbac.authorization.${flavor.domain}/`);
    t = t.replace(/^system:kube-/, `system:${product}-`);
    t = t.replace(/^kube-(scheduler|controller-manager|proxy)$/, `${nsPrefix}-$1`);
    return t;
  };
  // ~4,900 strings, ~320 distinct, ~40 that any rule above can change (each names `k8s.io`,
  // `kubernetes.io/` or `kube-`): translate each distinct string once, and skip the expressions for
  // the rest (on a process's first start the expressions ran ~5,000 times, ~40 ms of CPU).
  const seen = new Map<string, string>();
  return (s) => {
    if (!s.includes('k8s.io') && !s.includes('kubernetes.io/') && !s.includes('kube-')) return s;
    let t = seen.get(s);
    if (t === undefined) {
      t = translate(s);
      seen.set(s, t);
    }
    return t;
  };
}

/** A translated, frozen copy of `v` (every object and array frozen as it is built). */
function frozenMap(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return Object.freeze(v.map((x) => frozenMap(x, f)));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[f(k)] = frozenMap((v as Record<string, unknown>)[k], f);
    return Object.freeze(out);
  }
  return v;
}

/** The translated policy of each flavor object, built once per process (frozen: never mutated). */
const translated = new WeakMap<Flavor, DefaultPolicy>();

/**
 * The default policy of `flavor`, translated once per flavor and shared: every object (and array) is
 * frozen, for readers that only compare or copy it (a server's start-up reconciliation, the Node
 * authorizer's rules), so a start pays no translation. `defaultPolicy` gives mutable copies.
 */
export function sharedDefaultPolicy(flavor: Flavor): DefaultPolicy {
  const cached = translated.get(flavor);
  if (cached) return cached;
  const f = translator(flavor);
  const t = <T>(xs: unknown[]): T[] => frozenMap(xs, f) as T[];
  const policy: DefaultPolicy = Object.freeze({
    clusterRoles: t<ClusterRole>([...upstream['cluster-roles'], ...upstream['controller-roles']]),
    clusterRoleBindings: t<ClusterRoleBinding>([
      ...upstream['cluster-role-bindings'],
      ...upstream['controller-role-bindings'],
    ]),
    roles: t<Role>(upstream['namespace-roles']),
    roleBindings: t<RoleBinding>(upstream['namespace-role-bindings']),
  });
  translated.set(flavor, policy);
  return policy;
}

/** The default policy of `flavor`, as fresh objects (callers may mutate them). */
export function defaultPolicy(flavor: Flavor): DefaultPolicy {
  return cloneJson(sharedDefaultPolicy(flavor));
}

/** The annotation that, set to `"false"`, stops reconciliation of a default object at start. */
export function autoupdateAnnotation(flavor: Flavor): string {
  return flavor.domain === 'k8s.io'
    ? 'rbac.authorization.kubernetes.io/autoupdate'
    : `rbac.authorization.${flavor.domain}/autoupdate`;
}
