import type { Flavor } from '@orchard/meta';

/**
 * The domain of identity names (Secret type `bootstrap.<d>/token`, the service-account claim `<d>`,
 * user extras `authentication.<d>/pod-name`): `kubernetes.io` upstream, `orch.io` in the spec's names
 * (the API group domain `k8s.io` is a different string upstream).
 */
export function identityDomain(flavor: Flavor): string {
  return flavor.name === 'kubernetes' ? 'kubernetes.io' : flavor.domain;
}
