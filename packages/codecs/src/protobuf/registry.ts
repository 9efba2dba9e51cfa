/**
 * Which kinds have a Protobuf message, and the protobufjs root built from the bundled `.proto`
 * sources. Groups are matched by prefix and the flavor's domain (`coordination.k8s.io` and
 * `coordination.orch.io` both map to `coordination.*`), never by a hard-coded domain.
 */
import type { Flavor, GroupVersionKind } from '@orchard/meta';
import type { Root, Type } from 'protobufjs';
import protobuf from 'protobufjs';
import { protoFiles } from './proto/index.js';

const corePackage = 'k8s.io.api.core.v1';
const metaPackage = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const appsPackage = 'k8s.io.api.apps.v1';
const coordinationPackage = 'k8s.io.api.coordination.v1';
const autoscalingPackage = 'k8s.io.api.autoscaling.v1';
const batchPackage = 'k8s.io.api.batch.v1';
const networkingPackage = 'k8s.io.api.networking.v1';
const authnPackage = 'k8s.io.api.authentication.v1';
const apiextensionsPackage = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';
const authzPackage = 'k8s.io.api.authorization.v1';
const rbacPackage = 'k8s.io.api.rbac.v1';

/**
 * One served kind. `group` is `''` (core), a plain group (`apps`), or `<prefix>.*` for a group
 * under the flavor's domain. `list: true` also registers `<Kind>List` → `<message>List`.
 */
export interface ProtobufKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Full protobuf message name without the leading dot. */
  readonly message: string;
  readonly list?: boolean;
}

/** Every kind with a Protobuf form. Custom resources never have one (spec doc 1 §2.5). */
export const protobufKinds: readonly ProtobufKind[] = Object.freeze([
  { group: '', version: 'v1', kind: 'ConfigMap', message: `${corePackage}.ConfigMap`, list: true },
  { group: '', version: 'v1', kind: 'Namespace', message: `${corePackage}.Namespace`, list: true },
  { group: '', version: 'v1', kind: 'Secret', message: `${corePackage}.Secret`, list: true },
  { group: '', version: 'v1', kind: 'ServiceAccount', message: `${corePackage}.ServiceAccount`, list: true },
  { group: '', version: 'v1', kind: 'Pod', message: `${corePackage}.Pod`, list: true },
  { group: '', version: 'v1', kind: 'Service', message: `${corePackage}.Service`, list: true },
  { group: '', version: 'v1', kind: 'Event', message: `${corePackage}.Event`, list: true },
  { group: '', version: 'v1', kind: 'Node', message: `${corePackage}.Node`, list: true },
  { group: '', version: 'v1', kind: 'ResourceQuota', message: `${corePackage}.ResourceQuota`, list: true },
  { group: 'apps', version: 'v1', kind: 'Deployment', message: `${appsPackage}.Deployment`, list: true },
  { group: 'apps', version: 'v1', kind: 'ReplicaSet', message: `${appsPackage}.ReplicaSet`, list: true },
  { group: 'batch', version: 'v1', kind: 'Job', message: `${batchPackage}.Job`, list: true },
  { group: 'batch', version: 'v1', kind: 'CronJob', message: `${batchPackage}.CronJob`, list: true },
  {
    group: 'networking.*',
    version: 'v1',
    kind: 'Ingress',
    message: `${networkingPackage}.Ingress`,
    list: true,
  },
  { group: 'autoscaling', version: 'v1', kind: 'Scale', message: `${autoscalingPackage}.Scale` },
  {
    group: 'coordination.*',
    version: 'v1',
    kind: 'Lease',
    message: `${coordinationPackage}.Lease`,
    list: true,
  },
  { group: '', version: 'v1', kind: 'Status', message: `${metaPackage}.Status` },
  { group: '', version: 'v1', kind: 'DeleteOptions', message: `${metaPackage}.DeleteOptions` },
  { group: 'meta.*', version: 'v1', kind: 'DeleteOptions', message: `${metaPackage}.DeleteOptions` },
  { group: 'meta.*', version: 'v1', kind: 'Status', message: `${metaPackage}.Status` },
  {
    group: 'meta.*',
    version: 'v1',
    kind: 'PartialObjectMetadata',
    message: `${metaPackage}.PartialObjectMetadata`,
    list: true,
  },
  {
    group: 'apiextensions.*',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    message: `${apiextensionsPackage}.CustomResourceDefinition`,
    list: true,
  },
  { group: 'authentication.*', version: 'v1', kind: 'TokenRequest', message: `${authnPackage}.TokenRequest` },
  { group: 'authentication.*', version: 'v1', kind: 'TokenReview', message: `${authnPackage}.TokenReview` },
  {
    group: 'authentication.*',
    version: 'v1',
    kind: 'SelfSubjectReview',
    message: `${authnPackage}.SelfSubjectReview`,
  },
  {
    group: 'authorization.*',
    version: 'v1',
    kind: 'SelfSubjectAccessReview',
    message: `${authzPackage}.SelfSubjectAccessReview`,
  },
  {
    group: 'authorization.*',
    version: 'v1',
    kind: 'SelfSubjectRulesReview',
    message: `${authzPackage}.SelfSubjectRulesReview`,
  },
  {
    group: 'authorization.*',
    version: 'v1',
    kind: 'SubjectAccessReview',
    message: `${authzPackage}.SubjectAccessReview`,
  },
  {
    group: 'authorization.*',
    version: 'v1',
    kind: 'LocalSubjectAccessReview',
    message: `${authzPackage}.LocalSubjectAccessReview`,
  },
  { group: 'rbac.authorization.*', version: 'v1', kind: 'Role', message: `${rbacPackage}.Role`, list: true },
  {
    group: 'rbac.authorization.*',
    version: 'v1',
    kind: 'RoleBinding',
    message: `${rbacPackage}.RoleBinding`,
    list: true,
  },
  {
    group: 'rbac.authorization.*',
    version: 'v1',
    kind: 'ClusterRole',
    message: `${rbacPackage}.ClusterRole`,
    list: true,
  },
  {
    group: 'rbac.authorization.*',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    message: `${rbacPackage}.ClusterRoleBinding`,
    list: true,
  },
]);

const byKey = new Map<string, string>();
for (const k of protobufKinds) {
  byKey.set(`${k.group}/${k.version}/${k.kind}`, k.message);
  if (k.list) byKey.set(`${k.group}/${k.version}/${k.kind}List`, `${k.message}List`);
}

/** `coordination.k8s.io` under the kubernetes flavor → `coordination.*`; `apps` → `apps`. */
function groupPattern(group: string, flavor: Flavor): string {
  const suffix = `.${flavor.domain}`;
  return group.endsWith(suffix) ? `${group.slice(0, -suffix.length)}.*` : group;
}

/** The message name for a kind, or undefined when it has no Protobuf form. */
export function protobufMessageName(gvk: GroupVersionKind, flavor: Flavor): string | undefined {
  return byKey.get(`${groupPattern(gvk.group, flavor)}/${gvk.version}/${gvk.kind}`);
}

let root: Root | undefined;

/** The protobufjs root with every bundled `.proto` parsed and resolved (built once, on first use). */
export function protobufRoot(): Root {
  if (!root) {
    const r = new protobuf.Root();
    for (const f of protoFiles) protobuf.parse(f.text, r, { keepCase: true });
    r.resolveAll();
    root = r;
  }
  return root;
}

const types = new Map<string, Type>();

export function messageType(name: string): Type {
  let t = types.get(name);
  if (!t) {
    t = protobufRoot().lookupType(name);
    types.set(name, t);
  }
  return t;
}
