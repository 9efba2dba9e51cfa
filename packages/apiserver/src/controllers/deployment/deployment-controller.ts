import {
  type ApiObject,
  isApiError,
  labelSelectorFromObject,
  newUid,
  nowRfc3339,
  type StoredObject,
} from '@orchard/meta';
import { isJsonObject, jsonEqual } from '@orchard/meta/internal';
import { isStoreError } from '@orchard/store';
import { deleteObject } from '../../lifecycle/deletion.js';
import { createWorkQueue } from '../../lifecycle/work-queue.js';
import type { ServerState } from '../../state.js';
import type { ObservingController } from '../service-account-controller.js';
import { deploymentStatus, specOf, statusOf } from './deployment-status.js';
import { computePodTemplateHash, podTemplateHashLabel, templateWithoutHash } from './pod-template-hash.js';
import { simulatedReplicaSetStatus } from './replica-readiness.js';
import { revisionAnnotations, rolloutAnnotations } from './revisions.js';

type Obj = Record<string, unknown>;

/**
 * Upstream's deployment controller without pods: each Deployment owns ReplicaSets named
 * `<deployment>-<pod-template-hash>`; the one whose template equals the Deployment's is the new
 * one (created when none is, or adopted from orphans the selector matches), the others are old.
 * No pods run, so replicas move at once whatever the strategy: the new ReplicaSet gets
 * `spec.replicas`, old ones 0 (a paused Deployment only scales). Old ReplicaSets at 0 beyond
 * `revisionHistoryLimit` are deleted; the revision annotations make `kubectl rollout history` and
 * `rollout undo` work; the status follows the ReplicaSets' status. With `simulateReplicaReadiness`
 * every ReplicaSet's status reports its replicas ready and available, so rollouts complete.
 */
export function createDeploymentController(state: ServerState): ObservingController {
  const { objects } = state;
  const simulate = state.options.simulateReplicaReadiness;
  const annotations = rolloutAnnotations(state.flavor);
  const key = (resource: string, namespace: string, name: string) =>
    objects.key({ group: 'apps', resource, namespace }, name);

  const queue = createWorkQueue(
    async (item) => {
      const [kind, namespace = '', name = ''] = item.split('/');
      if (kind === 'rs') await syncReplicaSetStatus(namespace, name);
      else await syncDeployment(namespace, name);
    },
    {
      onError: (item, error, dropped) =>
        state.log.error(`deployment controller: ${item}${dropped ? ' (dropped)' : ''}`, error),
      onOverflow: () => {},
    },
    { workers: 2 },
  );

  async function syncReplicaSetStatus(namespace: string, name: string): Promise<void> {
    try {
      await objects.update(key('replicasets', namespace, name), (rs) => ({
        ...rs,
        status: simulatedReplicaSetStatus(rs),
      }));
    } catch (e) {
      if (!isStoreError(e, 'NotFound')) throw e;
    }
  }

  async function listReplicaSets(namespace: string): Promise<StoredObject[]> {
    const { kvs } = await objects.store.list(
      objects.prefix({ group: 'apps', resource: 'replicasets', namespace }),
    );
    const out: StoredObject[] = [];
    for (const kv of kvs) {
      try {
        out.push(objects.decode(kv));
      } catch {
        // Undecodable objects are the unsafe-delete path's business.
      }
    }
    return out;
  }

  async function syncDeployment(namespace: string, name: string): Promise<void> {
    const dkey = key('deployments', namespace, name);
    const d = (await objects.get(dkey)).object;
    if (!d || d.metadata.deletionTimestamp) return;
    const spec = specOf(d);
    const uid = d.metadata.uid;
    const selector = labelSelectorFromObject(
      isJsonObject(spec.selector) ? (spec.selector as never) : undefined,
    );
    const owned: StoredObject[] = [];
    for (const rs of await listReplicaSets(namespace)) {
      const controller = (rs.metadata.ownerReferences ?? []).find((r) => r.controller === true);
      if (controller?.uid === uid) owned.push(rs);
      else if (!controller && !rs.metadata.deletionTimestamp && selector.matches(rs.metadata.labels ?? {}))
        owned.push(await adopt(rs, d));
    }
    const template = templateWithoutHash(spec.template);
    let newRs = owned.find((rs) => jsonEqual(templateWithoutHash(specOf(rs).template), template));
    const old = owned.filter((rs) => rs !== newRs);
    const revisions = revisionAnnotations(annotations, d, old);
    let event: 'created' | 'found' | undefined;
    const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
    if (!newRs && !spec.paused) {
      newRs = await createReplicaSet(d, desired, revisions.rsAnnotations(undefined));
      event = 'created';
    } else if (newRs) {
      event = 'found';
      const target = spec.paused ? specOf(newRs).replicas : desired;
      newRs = await updateReplicaSet(newRs, target, revisions.rsAnnotations(newRs));
    }
    const kept: StoredObject[] = [];
    for (const rs of old) kept.push(spec.paused ? rs : await updateReplicaSet(rs, 0, undefined));
    await pruneHistory(d, kept);
    const all = newRs ? [newRs, ...kept] : kept;
    const status = deploymentStatus({ deployment: d, newRs, allRs: all, ...(event ? { event } : {}) });
    const revision = newRs ? revisions.revisionOf(newRs) : undefined;
    await objects
      .update(dkey, (cur) => {
        if (cur.metadata.uid !== uid) throw Object.assign(new Error('replaced'), { replaced: true });
        const next: ApiObject = { ...cur, status };
        const ann = { ...(cur.metadata.annotations ?? {}) };
        if (revision !== undefined) ann[annotations.revision] = revision;
        next.metadata = { ...cur.metadata, annotations: ann };
        return next;
      })
      .catch((e) => {
        if (!(e as { replaced?: boolean }).replaced && !isStoreError(e, 'NotFound')) throw e;
      });
    // Re-check for the progress deadline while a rollout is unfinished.
    const deadline = typeof spec.progressDeadlineSeconds === 'number' ? spec.progressDeadlineSeconds : 0;
    const progressing = (status.conditions as { type: string; reason: string }[]).find(
      (c) => c.type === 'Progressing',
    );
    if (
      deadline > 0 &&
      progressing &&
      progressing.reason !== 'NewReplicaSetAvailable' &&
      progressing.reason !== 'ProgressDeadlineExceeded'
    )
      queue.addAfter(`deploy/${namespace}/${name}`, deadline * 1000 + 1000);
  }

  function ownerRef(d: StoredObject) {
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: d.metadata.name,
      uid: d.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    };
  }

  async function adopt(rs: StoredObject, d: StoredObject): Promise<StoredObject> {
    return objects.update(key('replicasets', rs.metadata.namespace ?? '', rs.metadata.name), (cur) => ({
      ...cur,
      metadata: { ...cur.metadata, ownerReferences: [...(cur.metadata.ownerReferences ?? []), ownerRef(d)] },
    }));
  }

  async function createReplicaSet(
    d: StoredObject,
    replicas: number,
    ann: Record<string, string>,
  ): Promise<StoredObject> {
    const spec = specOf(d);
    const status = statusOf(d);
    const collisionCount = typeof status.collisionCount === 'number' ? status.collisionCount : undefined;
    const hash = computePodTemplateHash(spec.template, collisionCount);
    const template = structuredClone(spec.template ?? {}) as Obj;
    const tmeta = (isJsonObject(template.metadata) ? template.metadata : {}) as Obj;
    template.metadata = { ...tmeta, labels: { ...(tmeta.labels as Obj), [podTemplateHashLabel]: hash } };
    const sel = structuredClone(isJsonObject(spec.selector) ? spec.selector : {}) as Obj;
    sel.matchLabels = { ...(sel.matchLabels as Obj), [podTemplateHashLabel]: hash };
    const name = `${d.metadata.name}-${hash}`;
    const namespace = d.metadata.namespace ?? '';
    const rs: ApiObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace,
        uid: newUid(),
        creationTimestamp: nowRfc3339(),
        generation: 1,
        labels: { ...((template.metadata as Obj).labels as Record<string, string>) },
        annotations: ann,
        ownerReferences: [ownerRef(d)],
      },
      spec: { replicas, minReadySeconds: spec.minReadySeconds ?? 0, selector: sel, template },
      status: { replicas: 0 },
    };
    try {
      return await objects.create(key('replicasets', namespace, name), rs);
    } catch (e) {
      if (!isStoreError(e, 'AlreadyExists')) throw e;
      // A hash collision with a ReplicaSet of another template: upstream bumps collisionCount.
      await objects.update(key('deployments', namespace, d.metadata.name), (cur) => ({
        ...cur,
        status: { ...statusOf(cur), collisionCount: (collisionCount ?? 0) + 1 },
      }));
      throw new Error(`ReplicaSet ${name} exists with another template; retrying with a new collision count`);
    }
  }

  async function updateReplicaSet(
    rs: StoredObject,
    replicas: unknown,
    ann: Record<string, string> | undefined,
  ): Promise<StoredObject> {
    const spec = specOf(rs);
    const annChanged = ann !== undefined && !jsonEqual(ann, rs.metadata.annotations ?? {});
    if (spec.replicas === replicas && !annChanged) return rs;
    return objects.update(key('replicasets', rs.metadata.namespace ?? '', rs.metadata.name), (cur) => {
      const cspec = specOf(cur);
      const gen = Number(cur.metadata.generation ?? 1);
      const scaled = cspec.replicas !== replicas;
      return {
        ...cur,
        metadata: {
          ...cur.metadata,
          ...(ann ? { annotations: ann } : {}),
          generation: scaled ? gen + 1 : gen,
        },
        spec: { ...cspec, replicas },
      };
    });
  }

  async function pruneHistory(d: StoredObject, old: StoredObject[]): Promise<void> {
    const limit =
      typeof specOf(d).revisionHistoryLimit === 'number' ? (specOf(d).revisionHistoryLimit as number) : 10;
    const idle = old
      .filter(
        (rs) =>
          specOf(rs).replicas === 0 &&
          Number(statusOf(rs).replicas ?? 0) === 0 &&
          !rs.metadata.deletionTimestamp,
      )
      .sort(
        (a, b) =>
          Number(a.metadata.annotations?.[annotations.revision] ?? 0) -
          Number(b.metadata.annotations?.[annotations.revision] ?? 0),
      );
    const def = state.registry.get('apps', 'replicasets');
    if (!def) return;
    for (const rs of idle.slice(0, Math.max(idle.length - limit, 0))) {
      try {
        await deleteObject(
          state,
          { def, namespace: rs.metadata.namespace ?? '', name: rs.metadata.name },
          {
            propagationPolicy: 'Background',
            preconditions: { uid: rs.metadata.uid },
          },
        );
      } catch (e) {
        if (!isApiError(e, 'NotFound', 'Conflict')) throw e;
      }
    }
  }

  return {
    observe(ev) {
      if (ev.group !== 'apps') return;
      const m = ev.object.metadata;
      if (ev.resource === 'deployments') {
        if (ev.type === 'put') queue.add(`deploy/${ev.namespace}/${m.name}`);
        return;
      }
      if (ev.resource !== 'replicasets') return;
      if (ev.type === 'put' && simulate && !jsonEqual(ev.object.status, simulatedReplicaSetStatus(ev.object)))
        queue.add(`rs/${ev.namespace}/${m.name}`);
      const owner = (m.ownerReferences ?? []).find((r) => r.controller === true && r.kind === 'Deployment');
      if (owner) queue.add(`deploy/${ev.namespace}/${owner.name}`);
    },
    idle: () => queue.idle(),
    stop: () => queue.stop(),
  };
}
