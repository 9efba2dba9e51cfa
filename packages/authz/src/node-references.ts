/**
 * The objects a Pod or a PersistentVolume refers to, as the Node authorizer's graph records them
 * (upstream `VisitPodSecretNames`, `VisitPodConfigmapNames`, the claim and service-account edges,
 * and `VisitPVSecretNames`). Objects arrive as stored JSON: every field is read defensively, and a
 * field of the wrong type contributes nothing rather than throwing.
 */

/** The kinds of object the graph relates to nodes. */
export type NodeGraphVertexKind =
  | 'pod'
  | 'secret'
  | 'configmap'
  | 'serviceaccount'
  | 'persistentvolumeclaim'
  | 'persistentvolume'
  | 'resourceclaim'
  | 'volumeattachment';

/** One referenced namespaced object: its kind and name (in the pod's namespace). */
export interface PodReference {
  readonly kind: 'secret' | 'configmap' | 'serviceaccount' | 'persistentvolumeclaim' | 'resourceclaim';
  readonly name: string;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

function list(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** `o[a][b]…` when every step is an object, the last a non-empty string. */
function path(o: unknown, ...keys: string[]): string | undefined {
  let cur: unknown = o;
  for (const k of keys) {
    const j = obj(cur);
    if (!j || !Object.hasOwn(j, k)) return undefined;
    cur = j[k];
  }
  return str(cur);
}

/** Volume sources whose `secretRef.name` names a Secret (upstream's list for pods). */
const podSecretRefVolumes = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

function containersOf(spec: Json): Json[] {
  const out: Json[] = [];
  for (const field of ['initContainers', 'containers', 'ephemeralContainers'])
    for (const c of list(spec[field])) {
      const j = obj(c);
      if (j) out.push(j);
    }
  return out;
}

/**
 * Every Secret, ConfigMap, ServiceAccount, PersistentVolumeClaim and ResourceClaim a pod refers to,
 * each once: `imagePullSecrets`; in every (init, ephemeral) container `envFrom` and `env[].valueFrom`;
 * volumes (`secret`, `configMap`, `projected` sources, `persistentVolumeClaim`, generic `ephemeral` →
 * the claim `<pod>-<volume>`, the secret refs of `azureFile`, `csi` and the plugin volumes);
 * `serviceAccountName`; `resourceClaims` by name and the generated names in `status.resourceClaimStatuses`.
 */
export function podReferences(pod: unknown): PodReference[] {
  const seen = new Set<string>();
  const out: PodReference[] = [];
  const add = (kind: PodReference['kind'], name: string | undefined) => {
    if (name === undefined) return;
    const k = `${kind}\0${name}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push({ kind, name });
  };
  const p = obj(pod);
  const spec = obj(p?.spec);
  if (!p || !spec) return out;
  for (const s of list(spec.imagePullSecrets)) add('secret', path(s, 'name'));
  for (const c of containersOf(spec)) {
    for (const e of list(c.envFrom)) {
      add('secret', path(e, 'secretRef', 'name'));
      add('configmap', path(e, 'configMapRef', 'name'));
    }
    for (const e of list(c.env)) {
      add('secret', path(e, 'valueFrom', 'secretKeyRef', 'name'));
      add('configmap', path(e, 'valueFrom', 'configMapKeyRef', 'name'));
    }
  }
  const podName = path(p, 'metadata', 'name');
  for (const raw of list(spec.volumes)) {
    const v = obj(raw);
    if (!v) continue;
    add('secret', path(v, 'secret', 'secretName'));
    add('configmap', path(v, 'configMap', 'name'));
    add('secret', path(v, 'azureFile', 'secretName'));
    add('secret', path(v, 'csi', 'nodePublishSecretRef', 'name'));
    for (const field of podSecretRefVolumes) add('secret', path(v, field, 'secretRef', 'name'));
    for (const src of list(obj(v.projected)?.sources)) {
      add('secret', path(src, 'secret', 'name'));
      add('configmap', path(src, 'configMap', 'name'));
    }
    add('persistentvolumeclaim', path(v, 'persistentVolumeClaim', 'claimName'));
    const volumeName = str(v.name);
    if (obj(v.ephemeral) && podName !== undefined && volumeName !== undefined)
      add('persistentvolumeclaim', `${podName}-${volumeName}`);
  }
  add('serviceaccount', str(spec.serviceAccountName));
  for (const c of list(spec.resourceClaims)) add('resourceclaim', path(c, 'resourceClaimName'));
  for (const c of list(obj(p.status)?.resourceClaimStatuses))
    add('resourceclaim', path(c, 'resourceClaimName'));
  return out;
}

/** What the graph keeps of a PersistentVolume: the claim it is bound to and the Secrets it names. */
export interface PersistentVolumeReferences {
  /** `spec.claimRef` as namespace and name, when both are set. */
  readonly claim?: { readonly namespace: string; readonly name: string };
  /** Secrets as namespace and name (a ref without a namespace takes the claim's). */
  readonly secrets: readonly { readonly namespace: string; readonly name: string }[];
}

/** PV volume sources whose `secretRef` ({name, namespace}) names a Secret. */
const pvSecretRefVolumes = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];
/** The CSI secret references of a PV. */
const csiSecretRefs = [
  'controllerPublishSecretRef',
  'controllerExpandSecretRef',
  'nodePublishSecretRef',
  'nodeStageSecretRef',
  'nodeExpandSecretRef',
];

/** The claim and Secrets of a PersistentVolume (upstream `VisitPVSecretNames` plus `claimRef`). */
export function persistentVolumeReferences(pv: unknown): PersistentVolumeReferences {
  const spec = obj(obj(pv)?.spec);
  if (!spec) return { secrets: [] };
  const claimNamespace = path(spec, 'claimRef', 'namespace');
  const claimName = path(spec, 'claimRef', 'name');
  const secrets: { namespace: string; name: string }[] = [];
  const add = (ref: unknown, nameField = 'name', namespaceField = 'namespace') => {
    const r = obj(ref);
    const name = str(r?.[nameField]);
    const namespace = str(r?.[namespaceField]) ?? claimNamespace;
    if (name !== undefined && namespace !== undefined) secrets.push({ namespace, name });
  };
  add(spec.azureFile, 'secretName', 'secretNamespace');
  for (const field of pvSecretRefVolumes) add(obj(spec[field])?.secretRef);
  const csi = obj(spec.csi);
  if (csi) for (const field of csiSecretRefs) add(csi[field]);
  return {
    ...(claimNamespace !== undefined && claimName !== undefined
      ? { claim: { namespace: claimNamespace, name: claimName } }
      : {}),
    secrets,
  };
}
