import { type Flavor, type FlavorName, flavorByName } from '@orchard/meta';

/** The flavors every HTTP-level suite runs under (`describe.each(flavorNames)`). */
export const flavorNames: readonly FlavorName[] = Object.freeze(['orch', 'kubernetes'] as const);

/**
 * What a suite needs to know of a flavor beyond `Flavor` itself: the domain of its well-known labels
 * and annotations (`kubernetes.io` upstream, `orch.io` in the spec's names; written out here rather
 * than derived, so a server that picks the wrong one fails), and whether stock kubectl may talk to it.
 */
export interface FlavorUnderTest {
  readonly name: FlavorName;
  readonly flavor: Flavor;
  /** `kubernetes.io` / `orch.io`: `batch.<d>/controller-uid`, `deployment.<d>/revision` … */
  readonly labelDomain: string;
  /** Stock kubectl speaks only the kubernetes flavor's names. */
  readonly kubectl: boolean;
}

/** The `FlavorUnderTest` of a flavor name. */
export function flavorUnderTest(name: FlavorName): FlavorUnderTest {
  return {
    name,
    flavor: flavorByName(name),
    labelDomain: name === 'kubernetes' ? 'kubernetes.io' : 'orch.io',
    kubectl: name === 'kubernetes',
  };
}
