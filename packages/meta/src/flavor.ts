/**
 * The identity token of the API ("flavor"). The spec writes `orch` wherever the product name
 * appears in an identifier; this is the ONE place that knows the concrete names. Everything
 * else asks the flavor (`flavor.group('coordination')`, `flavor.ext('list-type')`).
 */
export interface Flavor {
  /** `orch` or `kubernetes`. */
  readonly name: FlavorName;
  /** The group domain: `orch.io` or `k8s.io`. */
  readonly domain: string;
  /** Protobuf media type: `application/vnd.orch.protobuf` / `application/vnd.kubernetes.protobuf`. */
  readonly protobufMediaType: string;
  /** OpenAPI extension prefix: `x-orch-` / `x-kubernetes-`. */
  readonly extensionPrefix: string;
  /** The system namespace (`orch-system` / `kube-system`). */
  readonly systemNamespace: string;
  /** The public namespace holding `cluster-info` (`orch-public` / `kube-public`). */
  readonly publicNamespace: string;
  /** The namespace of node Lease objects (`orch-node-lease` / `kube-node-lease`). */
  readonly nodeLeaseNamespace: string;
  /** Namespaces that exist at start. */
  readonly defaultNamespaces: readonly string[];
  /** The finalizer the namespace controller puts in `spec.finalizers` (`orch` / `kubernetes`). */
  readonly namespaceFinalizer: string;
  /** Label/annotation prefixes reserved for the system (`orch.io/`, `k8s.io/`, `kubernetes.io/`). */
  readonly reservedLabelPrefixes: readonly string[];
  /** The annotation client-side apply keeps the last applied configuration in. */
  readonly lastAppliedAnnotation: string;
  /** The ConfigMap in every namespace that holds the API's CA bundle (`orch-root-ca.crt` / `kube-root-ca.crt`). */
  readonly rootCaConfigMap: string;
  /** The annotation a system object explains itself in (`orch.io/description` / `kubernetes.io/description`). */
  readonly descriptionAnnotation: string;
  /** A named group in this flavor: `group('coordination')` → `coordination.k8s.io`. */
  group(prefix: string): string;
  /** An OpenAPI extension name: `ext('list-type')` → `x-kubernetes-list-type`. */
  ext(name: string): string;
}

/** The names of the built-in flavors. */
export type FlavorName = 'orch' | 'kubernetes';

function makeFlavor(
  name: FlavorName,
  domain: string,
  product: string,
  systemPrefix: string,
  extra: string[],
): Flavor {
  const systemNamespace = `${systemPrefix}-system`;
  const publicNamespace = `${systemPrefix}-public`;
  const nodeLeaseNamespace = `${systemPrefix}-node-lease`;
  const annotationDomain = extra[0] ?? domain;
  return Object.freeze({
    name,
    domain,
    protobufMediaType: `application/vnd.${product}.protobuf`,
    extensionPrefix: `x-${product}-`,
    systemNamespace,
    publicNamespace,
    nodeLeaseNamespace,
    defaultNamespaces: Object.freeze(['default', systemNamespace, publicNamespace, nodeLeaseNamespace]),
    namespaceFinalizer: product,
    reservedLabelPrefixes: Object.freeze([`${domain}/`, ...extra.map((d) => `${d}/`)]),
    lastAppliedAnnotation: `${name === 'kubernetes' ? 'kubectl.kubernetes.io' : 'orchctl.orch.io'}/last-applied-configuration`,
    rootCaConfigMap: `${systemPrefix}-root-ca.crt`,
    descriptionAnnotation: `${annotationDomain}/description`,
    group: (prefix: string) => `${prefix}.${domain}`,
    ext: (n: string) => `x-${product}-${n}`,
  });
}

/** The default flavor: exactly the identifiers of the spec. */
export const orchFlavor: Flavor = makeFlavor('orch', 'orch.io', 'orch', 'orch', []);
/** The upstream identifiers, so stock kubectl and client libraries work unchanged. */
export const kubernetesFlavor: Flavor = makeFlavor('kubernetes', 'k8s.io', 'kubernetes', 'kube', [
  'kubernetes.io',
]);

/** The flavor of that name; throws on an unknown one. */
export function flavorByName(name: string): Flavor {
  if (name === 'orch') return orchFlavor;
  if (name === 'kubernetes') return kubernetesFlavor;
  throw new Error(`unknown flavor ${JSON.stringify(name)} (expected "orch" or "kubernetes")`);
}
