import type { Quantity } from '@orchard/meta';
import { getOwn, isJsonObject } from '@orchard/meta/internal';
import { quantityOf } from './quantity-of.js';

export type PodQosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** The resources that decide a pod's QoS class (upstream `isSupportedQoSComputeResource`). */
const qosResources = ['cpu', 'memory'] as const;

type Totals = Map<string, Quantity>;

function addPositive(totals: Totals, resources: unknown, found?: Set<string>): void {
  if (!isJsonObject(resources)) return;
  for (const name of qosResources) {
    const q = quantityOf(getOwn(resources, name));
    if (q === undefined || q.sign() <= 0) continue;
    found?.add(name);
    const sum = totals.get(name);
    totals.set(name, sum === undefined ? q : sum.add(q));
  }
}

/**
 * A pod's quality-of-service class, as upstream's `GetPodQOS` computes it from the cpu and memory
 * of its containers and init containers: no requests or limits at all is `BestEffort`; every
 * container limiting both, with the summed requests equal to the summed limits, is `Guaranteed`;
 * anything else `Burstable`.
 */
export function podQosClass(pod: Record<string, unknown>): PodQosClass {
  const spec = isJsonObject(pod.spec) ? pod.spec : {};
  const requests: Totals = new Map();
  const limits: Totals = new Map();
  let guaranteed = true;
  for (const list of [spec.initContainers, spec.containers]) {
    if (!Array.isArray(list)) continue;
    for (const container of list) {
      const resources =
        isJsonObject(container) && isJsonObject(container.resources) ? container.resources : {};
      addPositive(requests, resources.requests);
      const limited = new Set<string>();
      addPositive(limits, resources.limits, limited);
      if (qosResources.some((name) => !limited.has(name))) guaranteed = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed && requests.size === limits.size) {
    for (const [name, r] of requests) {
      const l = limits.get(name);
      if (l === undefined || l.cmp(r) !== 0) return 'Burstable';
    }
    return 'Guaranteed';
  }
  return 'Burstable';
}
