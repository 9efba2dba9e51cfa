import type { Flavor, StoredObject } from '@orchard/meta';
import { fenceposts, specOf } from './deployment-status.js';

/** The annotation names of rollouts under a flavor (`deployment.kubernetes.io/revision` …). */
export interface RolloutAnnotations {
  readonly revision: string;
  readonly revisionHistory: string;
  readonly desiredReplicas: string;
  readonly maxReplicas: string;
  /** Deployment annotations never copied onto its ReplicaSets (upstream's skip list). */
  readonly notCopied: readonly string[];
}

/** The flavor's rollout annotations: `deployment.<annotation domain>/…`. */
export function rolloutAnnotations(flavor: Flavor): RolloutAnnotations {
  const domain = flavor.descriptionAnnotation.split('/')[0] as string;
  const p = `deployment.${domain}`;
  const revision = `${p}/revision`;
  const revisionHistory = `${p}/revision-history`;
  const desiredReplicas = `${p}/desired-replicas`;
  const maxReplicas = `${p}/max-replicas`;
  return Object.freeze({
    revision,
    revisionHistory,
    desiredReplicas,
    maxReplicas,
    notCopied: Object.freeze([
      flavor.lastAppliedAnnotation,
      revision,
      revisionHistory,
      desiredReplicas,
      maxReplicas,
      `${p}.rollback`,
    ]),
  });
}

/**
 * Upstream's `SetNewReplicaSetAnnotations`: the new ReplicaSet's revision is one past the highest
 * of the old ones (a ReplicaSet brought back by `rollout undo` moves its old number into
 * `revision-history`), the Deployment's own annotations (`kubernetes.io/change-cause` …) are
 * copied, and a created one records `desired-replicas` and `max-replicas`.
 */
export function revisionAnnotations(
  a: RolloutAnnotations,
  deployment: StoredObject,
  old: readonly StoredObject[],
) {
  const revisionOf = (rs: StoredObject): string | undefined => rs.metadata.annotations?.[a.revision];
  const maxOld = old.reduce((m, rs) => Math.max(m, Number(revisionOf(rs) ?? 0) || 0), 0);
  const next = maxOld + 1;
  return {
    revisionOf,
    rsAnnotations(rs: StoredObject | undefined): Record<string, string> {
      const out: Record<string, string> = { ...(rs?.metadata.annotations ?? {}) };
      for (const [k, v] of Object.entries(deployment.metadata.annotations ?? {}))
        if (!a.notCopied.includes(k)) out[k] = v;
      const had = rs ? revisionOf(rs) : undefined;
      if (had === undefined || (Number(had) || 0) < next) {
        out[a.revision] = String(next);
        if (had !== undefined && had !== '') {
          const history = out[a.revisionHistory];
          out[a.revisionHistory] = history ? `${history},${had}` : had;
        }
      }
      if (!rs) {
        const replicas =
          typeof specOf(deployment).replicas === 'number' ? (specOf(deployment).replicas as number) : 1;
        out[a.desiredReplicas] = String(replicas);
        out[a.maxReplicas] = String(replicas + fenceposts(deployment)[0]);
      }
      return out;
    },
  };
}
