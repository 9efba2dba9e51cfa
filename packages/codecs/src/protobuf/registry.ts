/**
 * Which kinds have a Protobuf message, and the protobufjs root built from the bundled `.proto`
 * sources. Groups are matched by prefix and the flavor's domain (`coordination.k8s.io` and
 * `coordination.orch.io` both map to `coordination.*`), never by a hard-coded domain.
 */
import type { Flavor, GroupVersionKind } from '@orchard/meta';
import type { Root, Type } from 'protobufjs';
import protobuf from 'protobufjs';
import { protoFiles } from './proto/index.js';

const CORE = 'k8s.io.api.core.v1';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const APPS = 'k8s.io.api.apps.v1';
const COORDINATION = 'k8s.io.api.coordination.v1';
const AUTOSCALING = 'k8s.io.api.autoscaling.v1';
const AUTHN = 'k8s.io.api.authentication.v1';
const APIEXTENSIONS = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';
const AUTHZ = 'k8s.io.api.authorization.v1';
const RBAC = 'k8s.io.api.rbac.v1';

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
  { group: '', version: 'v1', kind: 'ConfigMap', message: `${CORE}.ConfigMap`, list: true },
  { group: '', version: 'v1', kind: 'Namespace', message: `${CORE}.Namespace`, list: true },
  { group: '', version: 'v1', kind: 'Secret', message: `${CORE}.Secret`, list: true },
  { group: '', version: 'v1', kind: 'ServiceAccount', message: `${CORE}.ServiceAccount`, list: true },
  { group: '', version: 'v1', kind: 'Pod', message: `${CORE}.Pod`, list: true },
  { group: '', version: 'v1', kind: 'Service', message: `${CORE}.Service`, list: true },
  { group: '', version: 'v1', kind: 'Event', message: `${CORE}.Event`, list: true },
  { group: 'apps', version: 'v1', kind: 'Deployment', message: `${APPS}.Deployment`, list: true },
  { group: 'apps', version: 'v1', kind: 'ReplicaSet', message: `${APPS}.ReplicaSet`, list: true },
  { group: 'autoscaling', version: 'v1', kind: 'Scale', message: `${AUTOSCALING}.Scale` },
  { group: 'coordination.*', version: 'v1', kind: 'Lease', message: `${COORDINATION}.Lease`, list: true },
  { group: '', version: 'v1', kind: 'Status', message: `${META}.Status` },
  { group: '', version: 'v1', kind: 'DeleteOptions', message: `${META}.DeleteOptions` },
  { group: 'meta.*', version: 'v1', kind: 'DeleteOptions', message: `${META}.DeleteOptions` },
  { group: 'meta.*', version: 'v1', kind: 'Status', message: `${META}.Status` },
  {
    group: 'meta.*',
    version: 'v1',
    kind: 'PartialObjectMetadata',
    message: `${META}.PartialObjectMetadata`,
    list: true,
  },
  {
    group: 'apiextensions.*',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    message: `${APIEXTENSIONS}.CustomResourceDefinition`,
    list: true,
  },
  { group: 'authentication.*', version: 'v1', kind: 'TokenRequest', message: `${AUTHN}.TokenRequest` },
  { group: 'authentication.*', version: 'v1', kind: 'TokenReview', message: `${AUTHN}.TokenReview` },
  {
    group: 'authentication.*',
    version: 'v1',
    kind: 'SelfSubjectReview',
    message: `${AUTHN}.SelfSubjectReview`,
  },
  {
    group: 'authorization.*',
    version: 'v1',
    kind: 'SelfSubjectAccessReview',
    message: `${AUTHZ}.SelfSubjectAccessReview`,
  },
  {
    group: 'authorization.*',
    version: 'v1',
    kind: 'SelfSubjectRulesReview',
    message: `${AUTHZ}.SelfSubjectRulesReview`,
  },
  {
    group: 'authorization.*',
    version: 'v1',
    kind: 'SubjectAccessReview',
    message: `${AUTHZ}.SubjectAccessReview`,
  },
  {
    group: 'authorization.*',
    version: 'v1',
    kind: 'LocalSubjectAccessReview',
    message: `${AUTHZ}.LocalSubjectAccessReview`,
  },
  { group: 'rbac.authorization.*', version: 'v1', kind: 'Role', message: `${RBAC}.Role`, list: true },
  {
    group: 'rbac.authorization.*',
    version: 'v1',
    kind: 'RoleBinding',
    message: `${RBAC}.RoleBinding`,
    list: true,
  },
  {
    group: 'rbac.authorization.*',
    version: 'v1',
    kind: 'ClusterRole',
    message: `${RBAC}.ClusterRole`,
    list: true,
  },
  {
    group: 'rbac.authorization.*',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    message: `${RBAC}.ClusterRoleBinding`,
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
