import type { ApiObject } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';

/**
 * The status a ReplicaSet would report if its pods ran and were ready at once (the server runs no
 * pods): `simulateReplicaReadiness` writes it, so controllers and `kubectl rollout status` that
 * wait on rollouts can be tested. Zero counts are left out as Go's `omitempty` does (`replicas`
 * has no omitempty).
 */
export function simulatedReplicaSetStatus(rs: ApiObject): Record<string, unknown> {
  const spec = isJsonObject(rs.spec) ? rs.spec : {};
  const n = typeof spec.replicas === 'number' ? spec.replicas : 1;
  const generation = Number(rs.metadata?.generation ?? 0);
  return {
    replicas: n,
    ...(n ? { fullyLabeledReplicas: n, readyReplicas: n, availableReplicas: n } : {}),
    ...(generation ? { observedGeneration: generation } : {}),
  };
}
