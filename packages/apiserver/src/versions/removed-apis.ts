/**
 * The removed versions of spec doc 1 §9.4, by release: which group versions (and kinds) went away,
 * and what replaces them. A `--runtime-config` key naming one of them that this server does not
 * serve fails at start with the replacement in the message (a rehearsal aid, §9.4 "migration aids").
 */
import type { Flavor } from '@orchard/meta';

/** One row: `group` is a plain group (`batch`) or `<prefix>.*` for one under the flavor's domain. */
export interface RemovedApi {
  readonly group: string;
  readonly version: string;
  readonly kinds: readonly string[];
  /** The release that no longer serves it (`1.25`). */
  readonly removed: string;
  /** What to use instead (`batch/v1`), flavor-qualified the same way. */
  readonly replacement: string;
}

const row = (group: string, version: string, kinds: string, removed: string, replacement: string) =>
  Object.freeze({ group, version, kinds: Object.freeze(kinds.split(' ')), removed, replacement });

/** The §9.4 table (newest first). */
export const removedApis: readonly RemovedApi[] = Object.freeze([
  row(
    'flowcontrol.apiserver.*',
    'v1beta3',
    'FlowSchema PriorityLevelConfiguration',
    '1.32',
    'flowcontrol.apiserver.*/v1',
  ),
  row(
    'flowcontrol.apiserver.*',
    'v1beta2',
    'FlowSchema PriorityLevelConfiguration',
    '1.29',
    'flowcontrol.apiserver.*/v1',
  ),
  row('storage.*', 'v1beta1', 'CSIStorageCapacity', '1.27', 'storage.*/v1'),
  row(
    'flowcontrol.apiserver.*',
    'v1beta1',
    'FlowSchema PriorityLevelConfiguration',
    '1.26',
    'flowcontrol.apiserver.*/v1beta2',
  ),
  row('autoscaling', 'v2beta2', 'HorizontalPodAutoscaler', '1.26', 'autoscaling/v2'),
  row('batch', 'v1beta1', 'CronJob', '1.25', 'batch/v1'),
  row('discovery.*', 'v1beta1', 'EndpointSlice', '1.25', 'discovery.*/v1'),
  row('events.*', 'v1beta1', 'Event', '1.25', 'events.*/v1'),
  row('autoscaling', 'v2beta1', 'HorizontalPodAutoscaler', '1.25', 'autoscaling/v2'),
  row('policy', 'v1beta1', 'PodDisruptionBudget PodSecurityPolicy', '1.25', 'policy/v1'),
  row('node.*', 'v1beta1', 'RuntimeClass', '1.25', 'node.*/v1'),
  row(
    'admissionregistration.*',
    'v1beta1',
    'MutatingWebhookConfiguration ValidatingWebhookConfiguration',
    '1.22',
    'admissionregistration.*/v1',
  ),
  row('apiextensions.*', 'v1beta1', 'CustomResourceDefinition', '1.22', 'apiextensions.*/v1'),
  row('apiregistration.*', 'v1beta1', 'APIService', '1.22', 'apiregistration.*/v1'),
  row('authentication.*', 'v1beta1', 'TokenReview', '1.22', 'authentication.*/v1'),
  row(
    'authorization.*',
    'v1beta1',
    'LocalSubjectAccessReview SelfSubjectAccessReview SubjectAccessReview SelfSubjectRulesReview',
    '1.22',
    'authorization.*/v1',
  ),
  row('certificates.*', 'v1beta1', 'CertificateSigningRequest', '1.22', 'certificates.*/v1'),
  row('coordination.*', 'v1beta1', 'Lease', '1.22', 'coordination.*/v1'),
  row('extensions', 'v1beta1', 'Ingress', '1.22', 'networking.*/v1'),
  row('networking.*', 'v1beta1', 'Ingress IngressClass', '1.22', 'networking.*/v1'),
  row(
    'rbac.authorization.*',
    'v1beta1',
    'ClusterRole ClusterRoleBinding Role RoleBinding',
    '1.22',
    'rbac.authorization.*/v1',
  ),
  row('scheduling.*', 'v1beta1', 'PriorityClass', '1.22', 'scheduling.*/v1'),
  row('storage.*', 'v1beta1', 'CSIDriver CSINode StorageClass VolumeAttachment', '1.22', 'storage.*/v1'),
  row(
    'extensions',
    'v1beta1',
    'NetworkPolicy DaemonSet Deployment ReplicaSet PodSecurityPolicy',
    '1.16',
    'apps/v1',
  ),
  row('apps', 'v1beta2', 'DaemonSet Deployment StatefulSet ReplicaSet', '1.16', 'apps/v1'),
  row('apps', 'v1beta1', 'Deployment StatefulSet ReplicaSet', '1.16', 'apps/v1'),
]);

/** A §9.4 group name under `flavor` (`storage.*` → `storage.k8s.io`). */
export function removedApiGroup(group: string, flavor: Flavor): string {
  return group.endsWith('.*') ? flavor.group(group.slice(0, -2)) : group;
}

/** The replacement `<group>/<version>` of a row under `flavor`. */
function replacementOf(r: RemovedApi, flavor: Flavor): string {
  const slash = r.replacement.lastIndexOf('/');
  return `${removedApiGroup(r.replacement.slice(0, slash), flavor)}${r.replacement.slice(slash)}`;
}

/**
 * The §9.4 rows of `<group>/<version>` under `flavor`, as a sentence for a start-up error
 * (`batch/v1beta1 CronJob was removed in 1.25; use batch/v1`), or undefined when none.
 */
export function removedApiMessage(group: string, version: string, flavor: Flavor): string | undefined {
  const rows = removedApis.filter((r) => removedApiGroup(r.group, flavor) === group && r.version === version);
  if (rows.length === 0) return undefined;
  return rows
    .map(
      (r) =>
        `${group}/${version} ${r.kinds.join(', ')} was removed in ${r.removed}; use ${replacementOf(r, flavor)}`,
    )
    .join('; ');
}
