/**
 * Upstream's `SetDefaults_*` for StatefulSet, DaemonSet, ReplicationController,
 * PersistentVolumeClaim and PersistentVolume (pkg/apis/apps/v1 and pkg/apis/core/v1 defaults.go).
 * Each only fills what is unset, so running on create and on every update is harmless.
 */
import { isJsonObject } from '@orchard/meta/internal';
import { setPodSpecDefaults } from './defaults.js';

type Obj = Record<string, unknown>;

const unset = (v: unknown): boolean => v === undefined || v === null || v === '';
const child = (o: Obj, key: string): Obj => {
  const v = o[key];
  if (isJsonObject(v)) return v;
  const fresh: Obj = {};
  o[key] = fresh;
  return fresh;
};

/** SetDefaults_PersistentVolumeClaimSpec: a Filesystem volume. */
function setClaimSpecDefaults(spec: unknown): void {
  if (isJsonObject(spec) && unset(spec.volumeMode)) spec.volumeMode = 'Filesystem';
}

/** SetDefaults_PersistentVolumeClaim: the spec's defaults, phase Pending. */
export function setPersistentVolumeClaimDefaults(claim: Obj): void {
  setClaimSpecDefaults(claim.spec);
  const status = child(claim, 'status');
  if (unset(status.phase)) status.phase = 'Pending';
}

/** SetDefaults_PersistentVolume: Retain, Filesystem, phase Pending. */
export function setPersistentVolumeDefaults(volume: Obj): void {
  const spec = child(volume, 'spec');
  if (unset(spec.persistentVolumeReclaimPolicy)) spec.persistentVolumeReclaimPolicy = 'Retain';
  if (unset(spec.volumeMode)) spec.volumeMode = 'Filesystem';
  const status = child(volume, 'status');
  if (unset(status.phase)) status.phase = 'Pending';
}

/** apps/v1 SetDefaults_StatefulSet. */
export function setStatefulSetDefaults(set: Obj): void {
  const spec = set.spec;
  if (!isJsonObject(spec)) return;
  if (unset(spec.replicas)) spec.replicas = 1;
  if (unset(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady';
  const strategy = child(spec, 'updateStrategy');
  if (unset(strategy.type)) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    if (unset(rolling.partition)) rolling.partition = 0;
  }
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
  if (unset(retention.whenDeleted)) retention.whenDeleted = 'Retain';
  if (unset(retention.whenScaled)) retention.whenScaled = 'Retain';
  if (isJsonObject(spec.template)) setPodSpecDefaults(spec.template.spec);
  if (Array.isArray(spec.volumeClaimTemplates))
    for (const claim of spec.volumeClaimTemplates.filter(isJsonObject))
      setPersistentVolumeClaimDefaults(claim);
}

/** apps/v1 SetDefaults_DaemonSet. */
export function setDaemonSetDefaults(set: Obj): void {
  const spec = set.spec;
  if (!isJsonObject(spec)) return;
  const strategy = child(spec, 'updateStrategy');
  if (unset(strategy.type)) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    if (unset(rolling.maxUnavailable)) rolling.maxUnavailable = 1;
    if (unset(rolling.maxSurge)) rolling.maxSurge = 0;
  }
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  if (isJsonObject(spec.template)) setPodSpecDefaults(spec.template.spec);
}

/** core/v1 SetDefaults_ReplicationController: selector and labels from the template, one replica. */
export function setReplicationControllerDefaults(rc: Obj): void {
  const spec = rc.spec;
  if (!isJsonObject(spec)) return;
  const template = isJsonObject(spec.template) ? spec.template : undefined;
  const labels = template && isJsonObject(template.metadata) ? template.metadata.labels : undefined;
  if (isJsonObject(labels) && Object.keys(labels).length > 0) {
    if (!isJsonObject(spec.selector) || Object.keys(spec.selector).length === 0)
      spec.selector = { ...labels };
    const meta = child(rc, 'metadata');
    if (!isJsonObject(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
  }
  if (unset(spec.replicas)) spec.replicas = 1;
  if (template) setPodSpecDefaults(template.spec);
}

/** core/v1 SetDefaults_Endpoints: each subset port's protocol TCP. */
export function setEndpointsDefaults(endpoints: Obj): void {
  const subsets = Array.isArray(endpoints.subsets) ? endpoints.subsets.filter(isJsonObject) : [];
  for (const subset of subsets)
    for (const port of (Array.isArray(subset.ports) ? subset.ports : []).filter(isJsonObject))
      if (unset(port.protocol)) port.protocol = 'TCP';
}

/** discovery/v1 SetDefaults_EndpointPort: name `""` and protocol TCP (clients dereference both). */
export function setEndpointSliceDefaults(slice: Obj): void {
  for (const port of (Array.isArray(slice.ports) ? slice.ports : []).filter(isJsonObject)) {
    if (port.name === undefined || port.name === null) port.name = '';
    if (unset(port.protocol)) port.protocol = 'TCP';
  }
}
