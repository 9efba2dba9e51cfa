/**
 * A Deployment's `status` from its ReplicaSets, as upstream's deployment controller computes it
 * (`calculateStatus`, `syncRolloutStatus`): counts summed over the ReplicaSets, the `Available`
 * and `Progressing` conditions with upstream's reasons and messages.
 */
import { nowRfc3339 } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';

type Obj = Record<string, unknown>;

/** A Deployment condition (apps/v1 `DeploymentCondition`). */
export interface DeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** Upstream's reasons (`deploymentutil`). */
export const deploymentReasons = Object.freeze({
  newReplicaSetCreated: 'NewReplicaSetCreated',
  foundNewReplicaSet: 'FoundNewReplicaSet',
  replicaSetUpdated: 'ReplicaSetUpdated',
  newReplicaSetAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
});

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const specOf = (o: Obj): Obj => (isJsonObject(o.spec) ? o.spec : {});
export const statusOf = (o: Obj): Obj => (isJsonObject(o.status) ? o.status : {});

/** An int-or-percent of `total` (upstream `GetScaledValueFromIntOrPercent`). */
export function scaledValue(v: unknown, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\d+%$/.test(v)) {
    const x = (Number.parseInt(v, 10) * total) / 100;
    return roundUp ? Math.ceil(x) : Math.floor(x);
  }
  return 0;
}

/** `[maxSurge, maxUnavailable]` of a RollingUpdate Deployment (upstream `ResolveFenceposts`). */
export function fenceposts(deployment: Obj): [number, number] {
  const spec = specOf(deployment);
  const strategy = isJsonObject(spec.strategy) ? spec.strategy : {};
  if (strategy.type !== 'RollingUpdate') return [0, 0];
  const rolling = isJsonObject(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
  const desired = num(spec.replicas);
  const surge = scaledValue(rolling.maxSurge ?? '25%', desired, true);
  let unavailable = scaledValue(rolling.maxUnavailable ?? '25%', desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, Math.min(unavailable, desired)];
}

/** Omits zero counts, as Go's `omitempty` does. */
function counts(c: Record<string, number>): Obj {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== 0));
}

function setCondition(conditions: DeploymentCondition[], c: DeploymentCondition): DeploymentCondition[] {
  const current = conditions.find((x) => x.type === c.type);
  if (current && current.status === c.status && current.reason === c.reason) return conditions;
  if (current && current.status === c.status) c.lastTransitionTime = current.lastTransitionTime;
  return [...conditions.filter((x) => x.type !== c.type), c];
}

/** What the status is computed from. */
export interface StatusInput {
  readonly deployment: Obj;
  readonly newRs: Obj | undefined;
  readonly allRs: readonly Obj[];
  /** The condition to record because the controller just created or found the new ReplicaSet. */
  readonly event?: 'created' | 'found';
  readonly now?: () => Date;
}

/** The Deployment's new `status`. */
export function deploymentStatus(input: StatusInput): Obj {
  const { deployment, newRs, allRs } = input;
  const now = input.now?.() ?? new Date();
  const stamp = nowRfc3339(now);
  const spec = specOf(deployment);
  const old = statusOf(deployment);
  const desired = num(spec.replicas);
  const sum = (f: string) => allRs.reduce((a, rs) => a + num(statusOf(rs)[f]), 0);
  const total = allRs.reduce((a, rs) => a + num(specOf(rs).replicas), 0);
  const available = sum('availableReplicas');
  const c = {
    replicas: sum('replicas'),
    updatedReplicas: newRs ? num(statusOf(newRs).replicas) : 0,
    readyReplicas: sum('readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(total - available, 0),
  };
  const cond = (type: string, status: 'True' | 'False', reason: string, message: string) => ({
    type,
    status,
    lastUpdateTime: stamp,
    lastTransitionTime: stamp,
    reason,
    message,
  });
  let conditions = (Array.isArray(old.conditions) ? old.conditions : []).filter(
    isJsonObject,
  ) as unknown as DeploymentCondition[];
  const [, maxUnavailable] = fenceposts(deployment);
  conditions = setCondition(
    conditions,
    available >= desired - maxUnavailable
      ? cond(
          'Available',
          'True',
          deploymentReasons.minimumReplicasAvailable,
          'Deployment has minimum availability.',
        )
      : cond(
          'Available',
          'False',
          deploymentReasons.minimumReplicasUnavailable,
          'Deployment does not have minimum availability.',
        ),
  );
  const rsName = String((newRs?.metadata as Obj | undefined)?.name ?? '');
  const generation = num((deployment.metadata as Obj | undefined)?.generation);
  const progressing = conditions.find((x) => x.type === 'Progressing');
  const complete =
    newRs !== undefined && c.updatedReplicas === desired && c.replicas === desired && available === desired;
  const deadline =
    typeof spec.progressDeadlineSeconds === 'number' ? spec.progressDeadlineSeconds : undefined;
  if (input.event === 'created')
    conditions = setCondition(
      conditions,
      cond(
        'Progressing',
        'True',
        deploymentReasons.newReplicaSetCreated,
        `Created new replica set "${rsName}"`,
      ),
    );
  else if (input.event === 'found' && !progressing)
    conditions = setCondition(
      conditions,
      cond('Progressing', 'True', deploymentReasons.foundNewReplicaSet, `Found new replica set "${rsName}"`),
    );
  if (newRs !== undefined && deadline !== undefined && !spec.paused) {
    const prev = { ...counts({}), ...statusOf(deployment) };
    const moved =
      c.updatedReplicas > num(prev.updatedReplicas) ||
      c.readyReplicas > num(prev.readyReplicas) ||
      c.availableReplicas > num(prev.availableReplicas) ||
      c.replicas - c.updatedReplicas < num(prev.replicas) - num(prev.updatedReplicas);
    const current = conditions.find((x) => x.type === 'Progressing');
    if (complete) {
      conditions = setCondition(
        conditions,
        cond(
          'Progressing',
          'True',
          deploymentReasons.newReplicaSetAvailable,
          `ReplicaSet "${rsName}" has successfully progressed.`,
        ),
      );
    } else if (moved) {
      const next = cond(
        'Progressing',
        'True',
        deploymentReasons.replicaSetUpdated,
        `ReplicaSet "${rsName}" is progressing.`,
      );
      if (current?.status === 'True') next.lastTransitionTime = current.lastTransitionTime;
      conditions = [...conditions.filter((x) => x.type !== 'Progressing'), next];
    } else if (
      current &&
      current.reason !== deploymentReasons.newReplicaSetAvailable &&
      current.status === 'True'
    ) {
      const since = Date.parse(current.lastUpdateTime);
      if (Number.isFinite(since) && since + deadline * 1000 < now.getTime())
        conditions = setCondition(
          conditions,
          cond(
            'Progressing',
            'False',
            deploymentReasons.timedOut,
            `ReplicaSet "${rsName}" has timed out progressing.`,
          ),
        );
    }
  }
  return {
    ...(generation ? { observedGeneration: generation } : {}),
    ...counts(c),
    conditions,
    ...(typeof old.collisionCount === 'number' ? { collisionCount: old.collisionCount } : {}),
  };
}
