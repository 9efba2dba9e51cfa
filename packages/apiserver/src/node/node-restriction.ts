import { nodeIdentity, podReferences } from '@orchard/authz';
import { type ApiError, type ApiObject, errors, type Flavor } from '@orchard/meta';
import { jsonEqual } from '@orchard/meta/internal';
import type { WriteRequest, WriteStep } from '../handlers/write-pipeline.js';
import type { ServerState } from '../state.js';
import { modifiedLabels, nodeLabelPolicy, wellKnownLabelDomain } from './node-labels.js';

type Json = Record<string, any>;

/** Go's `%q` of a string. */
const q = (s: string) => JSON.stringify(s);

/** Empty and absent lists and maps are the same (upstream's semantic equality). */
const same = (a: unknown, b: unknown) => {
  const norm = (v: unknown) =>
    v === null ||
    v === undefined ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0)
      ? undefined
      : v;
  const x = norm(a);
  const y = norm(b);
  return x === undefined || y === undefined ? x === y : jsonEqual(x, y);
};

/** The Node object of `name` when the server serves nodes, else undefined. */
async function readNode(state: ServerState, name: string): Promise<ApiObject | undefined> {
  if (!state.registry.get('', 'nodes')) return undefined;
  const { object } = await state.objects.get(
    state.objects.key({ group: '', resource: 'nodes', namespace: '' }, name),
  );
  return object;
}

/** The checks of a mirror pod a node creates (upstream `admitPodCreate`). */
async function mirrorPodError(
  w: WriteRequest,
  node: string,
  deny: (m: string) => ApiError,
  mirrorAnnotation: string,
): Promise<ApiError | undefined> {
  const pod = w.obj as Json;
  const annotations = pod.metadata?.annotations;
  if (!annotations || typeof annotations !== 'object' || !Object.hasOwn(annotations, mirrorAnnotation))
    return deny(
      `pod does not have ${q(mirrorAnnotation)} annotation, node ${q(node)} can only create mirror pods`,
    );
  if (pod.spec?.nodeName !== node)
    return deny(`node ${q(node)} can only create pods with spec.nodeName set to itself`);
  const owners: Json[] = Array.isArray(pod.metadata?.ownerReferences) ? pod.metadata.ownerReferences : [];
  if (owners.length > 1)
    return deny(`node ${q(node)} can only create pods with a single owner reference set to itself`);
  const owner: Json = owners[0] ?? {};
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node)
    return deny(`node ${q(node)} can only create pods with an owner reference set to itself`);
  if (owner.controller !== true)
    return deny(`node ${q(node)} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true)
    return deny(`node ${q(node)} must not set blockOwnerDeletion on an owner reference`);
  const nodeObject = await readNode(w.ctx.server, node);
  if (!nodeObject) return errors.notFound({ group: '', resource: 'nodes' }, node);
  if (owner.uid !== nodeObject.metadata?.uid)
    return deny(
      `node ${node} UID mismatch: expected ${owner.uid ?? ''} got ${nodeObject.metadata?.uid ?? ''}`,
    );
  const spec: Json = pod.spec ?? {};
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '')
    return deny(`node ${q(node)} can not create pods that reference a service account`);
  const refs = podReferences({ ...pod, status: {} });
  if (refs.some((r) => r.kind === 'secret'))
    return deny(`node ${q(node)} can not create pods that reference secrets`);
  if (refs.some((r) => r.kind === 'configmap'))
    return deny(`node ${q(node)} can not create pods that reference configmaps`);
  const volumes: Json[] = Array.isArray(spec.volumes) ? spec.volumes : [];
  const sources = volumes.flatMap((v) => (Array.isArray(v?.projected?.sources) ? v.projected.sources : []));
  if (sources.some((s: Json) => s?.clusterTrustBundle))
    return deny(`node ${q(node)} can not create pods that reference clustertrustbundles`);
  if (volumes.some((v) => v?.persistentVolumeClaim))
    return deny(`node ${q(node)} can not create pods that reference persistentvolumeclaims`);
  return undefined;
}

function podStatusError(w: WriteRequest, node: string, deny: (m: string) => ApiError): ApiError | undefined {
  if (w.operation === 'create') return deny(`unexpected operation "CREATE"`);
  const old = (w.old ?? {}) as Json;
  const next = w.obj as Json;
  if (old.spec?.nodeName !== node)
    return deny(`node ${q(node)} can only update pod status for pods with spec.nodeName set to itself`);
  if (!same(old.metadata?.labels, next.metadata?.labels))
    return deny(`node ${q(node)} cannot update labels through pod status`);
  const claims = (p: Json) =>
    (Array.isArray(p.status?.resourceClaimStatuses) ? p.status.resourceClaimStatuses : []).map((c: Json) => [
      c?.name,
      c?.resourceClaimName ?? null,
    ]);
  if (!jsonEqual(claims(old), claims(next)))
    return deny(`node ${q(node)} cannot update resource claim statues`);
  return undefined;
}

function nodeObjectError(
  w: WriteRequest,
  node: string,
  deny: (m: string) => ApiError,
  flavor: Flavor,
): ApiError | undefined {
  const requested = w.operation === 'create' ? ((w.obj.metadata?.name as string | undefined) ?? '') : w.name;
  if (requested !== node) return deny(`node ${q(node)} is not allowed to modify node ${q(requested)}`);
  const next = w.obj as Json;
  const policy = nodeLabelPolicy(flavor);
  if (w.operation === 'create') {
    if (next.spec?.configSource)
      return deny(`node ${q(node)} is not allowed to create pods with a non-nil configSource`);
    const bad = policy.forbidden(modifiedLabels(next.metadata?.labels, undefined));
    if (bad.length > 0)
      return deny(`node ${q(node)} is not allowed to set the following labels: ${bad.join(', ')}`);
    return undefined;
  }
  const old = (w.old ?? {}) as Json;
  if (next.spec?.configSource && !same(next.spec.configSource, old.spec?.configSource))
    return deny(`node ${q(node)} is not allowed to update configSource to a new non-nil configSource`);
  if (!same(next.spec?.taints, old.spec?.taints))
    return deny(`node ${q(node)} is not allowed to modify taints`);
  const bad = policy.forbidden(modifiedLabels(next.metadata?.labels, old.metadata?.labels));
  if (bad.length > 0) return deny(`is not allowed to modify labels: ${bad.join(', ')}`);
  return undefined;
}

function pvcStatusError(w: WriteRequest, node: string, deny: (m: string) => ApiError): ApiError | undefined {
  if (w.ctx.info.subresource !== 'status') return deny('may only update PVC status');
  if (w.operation === 'create') return deny(`unexpected operation "CREATE"`);
  const strip = (o: unknown) => {
    const c = structuredClone((o ?? {}) as Json);
    if (c.metadata) {
      delete c.metadata.resourceVersion;
      delete c.metadata.managedFields;
    }
    if (c.status) {
      delete c.status.capacity;
      delete c.status.conditions;
    }
    return c;
  };
  if (!jsonEqual(strip(w.old), strip(w.obj)))
    return deny(
      `node ${q(node)} is not allowed to update fields other than status.capacity and status.conditions`,
    );
  return undefined;
}

/**
 * NodeRestriction admission (spec doc 2 §5.3, upstream's plugin) as a write step: a node
 * (`system:node:<name>` in `system:nodes`) may create or modify only its own Node (not its taints,
 * `configSource`, nor labels outside the ones a node reports itself), create only mirror pods bound
 * to itself that use no other objects, update the status of only its own pods (not their labels),
 * update only the status of claims, and write only its own Lease in the node-lease namespace (and
 * its own CSINode). Other users pass. Runs where upstream's mutating admission runs: after the patch
 * is applied and before the type's strategy, so a 403 comes before validation's 422.
 */
export function nodeRestrictionStep(flavor: Flavor): WriteStep {
  const mirrorAnnotation = `${wellKnownLabelDomain(flavor)}/config.mirror`;
  const coordination = flavor.group('coordination');
  const storage = flavor.group('storage');
  const leaseNamespace = flavor.nodeLeaseNamespace;
  const check = async (w: WriteRequest): Promise<void> => {
    const { isNode, nodeName } = nodeIdentity(w.ctx.user);
    if (!isNode) return;
    const { group, resource } = w.def;
    const objectName = w.name !== '' ? w.name : ((w.obj.metadata?.name as string | undefined) ?? '');
    const deny = (m: string) => errors.forbidden({ group, resource }, objectName, m);
    if (nodeName === '') throw deny(`could not determine node from user ${q(w.ctx.user.username)}`);
    const sub = w.ctx.info.subresource;
    let err: ApiError | undefined;
    if (group === '' && resource === 'pods') {
      if (sub === '')
        err =
          w.operation === 'create'
            ? await mirrorPodError(w, nodeName, deny, mirrorAnnotation)
            : deny(
                `unexpected operation "UPDATE", node ${q(nodeName)} can only create and delete mirror pods`,
              );
      else if (sub === 'status') err = podStatusError(w, nodeName, deny);
      else if (sub !== 'eviction')
        err = deny(`unexpected pod subresource ${q(sub)}, only 'status' and 'eviction' are allowed`);
    } else if (group === '' && resource === 'nodes') err = nodeObjectError(w, nodeName, deny, flavor);
    else if (group === '' && resource === 'persistentvolumeclaims') err = pvcStatusError(w, nodeName, deny);
    else if (group === coordination && resource === 'leases') {
      if (w.namespace !== leaseNamespace)
        err = deny(`can only access leases in the ${q(leaseNamespace)} system namespace`);
      else if (objectName !== nodeName)
        err = deny('can only access node lease with the same name as the requesting node');
    } else if (group === storage && resource === 'csinodes' && objectName !== nodeName)
      err = deny('can only access CSINode with the same name as the requesting node');
    if (err) throw err;
  };
  return {
    name: 'node-restriction',
    operations: ['create', 'update', 'patch'],
    // Synchronous for every caller but a node: no promise on their write path.
    run: (w) => (nodeIdentity(w.ctx.user).isNode ? check(w) : undefined),
  };
}

/**
 * NodeRestriction for deletes, which do not run the write pipeline: a node deletes only pods bound
 * to itself (`node "n1" can only delete pods with spec.nodeName set to itself`), 404 when the pod
 * does not exist; its own Lease only. Other users and resources pass.
 */
export async function nodeRestrictionOnDelete(
  state: ServerState,
  user: { readonly username: string; readonly groups: readonly string[] },
  target: {
    readonly group: string;
    readonly resource: string;
    readonly namespace: string;
    readonly name: string;
  },
): Promise<void> {
  const { isNode, nodeName } = nodeIdentity(user);
  if (!isNode) return;
  const deny = (m: string) =>
    errors.forbidden({ group: target.group, resource: target.resource }, target.name, m);
  if (nodeName === '') throw deny(`could not determine node from user ${q(user.username)}`);
  if (target.group === '' && target.resource === 'pods') {
    const { object } = await state.objects.get(
      state.objects.key({ group: '', resource: 'pods', namespace: target.namespace }, target.name),
    );
    if (!object) throw errors.notFound({ group: '', resource: 'pods' }, target.name);
    if ((object as Json).spec?.nodeName !== nodeName)
      throw deny(`node ${q(nodeName)} can only delete pods with spec.nodeName set to itself`);
  } else if (target.group === state.flavor.group('coordination') && target.resource === 'leases') {
    if (target.namespace !== state.flavor.nodeLeaseNamespace)
      throw deny(`can only access leases in the ${q(state.flavor.nodeLeaseNamespace)} system namespace`);
    if (target.name !== nodeName)
      throw deny('can only access node lease with the same name as the requesting node');
  }
}

/**
 * NodeRestriction for TokenRequests (`serviceaccounts/<name>/token`): a node's token must be bound
 * to a pod (`boundObjectRef` with `apiVersion: v1`, `kind: Pod`, a name and a uid) that exists with
 * that uid and is bound to the node. Other users pass. `ref` is the raw `spec.boundObjectRef`.
 */
export async function nodeRestrictionOnTokenRequest(
  state: ServerState,
  user: { readonly username: string; readonly groups: readonly string[] },
  target: { readonly namespace: string; readonly name: string },
  ref: unknown,
): Promise<void> {
  const { isNode, nodeName } = nodeIdentity(user);
  if (!isNode) return;
  const deny = (m: string) => errors.forbidden({ group: '', resource: 'serviceaccounts' }, target.name, m);
  if (nodeName === '') throw deny(`could not determine node from user ${q(user.username)}`);
  const r = (ref !== null && typeof ref === 'object' ? ref : {}) as Json;
  if (r.apiVersion !== 'v1' || r.kind !== 'Pod' || typeof r.name !== 'string' || r.name === '')
    throw deny('node requested token not bound to a pod');
  if (typeof r.uid !== 'string' || r.uid === '')
    throw deny('node requested token with a pod binding without a uid');
  const { object } = await state.objects.get(
    state.objects.key({ group: '', resource: 'pods', namespace: target.namespace }, r.name),
  );
  if (!object) throw errors.notFound({ group: '', resource: 'pods' }, r.name);
  if (object.metadata.uid !== r.uid)
    throw deny(
      `the UID in the bound object reference (${r.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  if ((object as Json).spec?.nodeName !== nodeName)
    throw deny('node requested token bound to a pod scheduled on a different node');
}
