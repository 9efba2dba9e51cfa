import type { Flavor } from '@orchard/meta';

/**
 * The label rules NodeRestriction applies to a node's own Node object (upstream `IsKubeletLabel`,
 * `node-restriction.kubernetes.io`), in the flavor's label domain: a node may set the labels it
 * reports itself (hostname, os, arch, zone, region, instance type, and the `kubelet.<domain>/` and
 * `node.<domain>/` namespaces) and any label outside the system domains, never the
 * `node-restriction.<domain>/` ones nor other system-domain labels (such as `node-role.<domain>/…`).
 */
export interface NodeLabelPolicy {
  /** The labels among `keys` a node may not add, change or remove on its own Node, sorted. */
  forbidden(keys: Iterable<string>): string[];
}

function labelNamespace(key: string): string {
  const i = key.indexOf('/');
  return i < 0 ? '' : key.slice(0, i);
}

const inDomain = (namespace: string, domain: string) =>
  namespace === domain || namespace.endsWith(`.${domain}`);

/** The domain of the flavor's well-known labels and annotations: `kubernetes.io` or `orch.io`. */
export function wellKnownLabelDomain(flavor: Flavor): string {
  return flavor.name === 'kubernetes' ? 'kubernetes.io' : flavor.domain;
}

/** The policy in `flavor`'s label domains (`kubernetes.io`/`k8s.io`, or `orch.io`). */
export function nodeLabelPolicy(flavor: Flavor): NodeLabelPolicy {
  const primary = wellKnownLabelDomain(flavor);
  const systemDomains = flavor.name === 'kubernetes' ? ['kubernetes.io', 'k8s.io'] : [flavor.domain];
  const kubeletLabels = new Set([
    `${primary}/hostname`,
    `topology.${primary}/zone`,
    `topology.${primary}/region`,
    `failure-domain.beta.${primary}/zone`,
    `failure-domain.beta.${primary}/region`,
    `beta.${primary}/instance-type`,
    `node.${primary}/instance-type`,
    `${primary}/os`,
    `${primary}/arch`,
    `beta.${primary}/os`,
    `beta.${primary}/arch`,
  ]);
  const kubeletNamespaces = [`kubelet.${primary}`, `node.${primary}`];
  const restricted = `node-restriction.${primary}`;
  const isKubeletLabel = (key: string) => {
    if (kubeletLabels.has(key)) return true;
    const ns = labelNamespace(key);
    return kubeletNamespaces.some((d) => inDomain(ns, d));
  };
  return {
    forbidden(keys) {
      const out = new Set<string>();
      for (const key of keys) {
        const ns = labelNamespace(key);
        if (inDomain(ns, restricted)) out.add(key);
        if (systemDomains.some((d) => inDomain(ns, d)) && !isKubeletLabel(key)) out.add(key);
      }
      return [...out].sort();
    },
  };
}

/** The keys whose value differs between two label maps (added, removed or changed). */
export function modifiedLabels(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): Set<string> {
  const out = new Set<string>();
  const x = a ?? {};
  const y = b ?? {};
  for (const k of Object.keys(x)) if (!Object.hasOwn(y, k) || x[k] !== y[k]) out.add(k);
  for (const k of Object.keys(y)) if (!Object.hasOwn(x, k) || x[k] !== y[k]) out.add(k);
  return out;
}
