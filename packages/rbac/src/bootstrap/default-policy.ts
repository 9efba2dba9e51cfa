/**
 * The default roles and bindings (spec doc 2 §5.3), generated from upstream's 1.32 golden policy
 * (`upstream-policy.json`, a JSON copy of `reference/rbac-bootstrap/*.yaml` without creationTimestamp)
 * and translated to a flavor's identifiers: `*.k8s.io` groups → `*.<domain>`, `kubernetes.io/` keys and
 * signer names → `<domain>/`, `kube-system`/`kube-public` → the flavor's namespaces, and
 * `system:kube-<x>` users → `system:<product>-<x>`. For the kubernetes flavor it is the data unchanged.
 */
import { type Flavor, orchFlavor } from '@orchard/meta';
import { cloneJson, deepFreeze } from '@orchard/meta/internal';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../types.js';
import upstream from './upstream-policy.json' with { type: 'json' };
import orchTranslation from './upstream-policy.orch.json' with { type: 'json' };

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

/** The upstream data's shape: the five lists, by the name of the file each came from. */
type PolicyData = { readonly [K in keyof typeof upstream]: readonly unknown[] };

/** A translated copy of `v` (every string and key through `f`, in the same order). */
function mapStrings(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[f(k)] = mapStrings((v as Record<string, unknown>)[k], f);
    return out;
  }
  return v;
}

/**
 * The upstream data translated for `flavor` (fresh, mutable). `upstream-policy.orch.json` is this for
 * the `orch` flavor, written by `scripts/generate-orch-policy.ts` and checked against it by the tests.
 */
export function translatedPolicyData(flavor: Flavor): PolicyData {
  return mapStrings(upstream, translator(flavor)) as PolicyData;
}

/** The fields of a flavor the translation reads: flavors equal in them translate alike. */
const translationKey = (f: Flavor) =>
  `${f.domain} ${f.systemNamespace} ${f.publicNamespace} ${f.namespaceFinalizer}`;

/** The translated policy of each flavor object, built once per process (frozen: never mutated). */
const translated = new WeakMap<Flavor, DefaultPolicy>();

/**
 * The default policy of `flavor`, translated once per flavor and shared: every object (and array) is
 * frozen, for readers that only compare or copy it (a server's start-up reconciliation, the Node
 * authorizer's rules), so a start pays no translation. `defaultPolicy` gives mutable copies. The
 * `kubernetes` flavor shares the upstream data itself, and the `orch` flavor its translation shipped
 * precomputed (`upstream-policy.orch.json`): translating ~15,000 values was ~3 ms of a process's first
 * start built, more from source, where freezing what is shipped costs ~0.5 ms. Other flavors are
 * translated here.
 */
export function sharedDefaultPolicy(flavor: Flavor): DefaultPolicy {
  const cached = translated.get(flavor);
  if (cached) return cached;
  const data: PolicyData = deepFreeze(
    flavor.domain === 'k8s.io'
      ? upstream
      : translationKey(flavor) === translationKey(orchFlavor)
        ? orchTranslation
        : translatedPolicyData(flavor),
  );
  const list = <T>(...xs: (readonly unknown[])[]): T[] =>
    Object.freeze(xs.length === 1 ? xs[0] : xs.flat()) as T[];
  const policy: DefaultPolicy = Object.freeze({
    clusterRoles: list<ClusterRole>(data['cluster-roles'], data['controller-roles']),
    clusterRoleBindings: list<ClusterRoleBinding>(
      data['cluster-role-bindings'],
      data['controller-role-bindings'],
    ),
    roles: list<Role>(data['namespace-roles']),
    roleBindings: list<RoleBinding>(data['namespace-role-bindings']),
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
