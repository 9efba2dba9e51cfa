/**
 * The Node authorizer's graph (spec doc 2 §5.3, upstream's node authorizer graph): which node each
 * bound Pod runs on, and which Secrets, ConfigMaps, ServiceAccounts, PersistentVolumeClaims and
 * ResourceClaims those pods refer to; PersistentVolumes hang off their bound claim (and bring their
 * own Secrets), VolumeAttachments off their node. A question "does node N reach object X" is a few
 * map look-ups, whatever the number of pods: each referenced object keeps a count per node.
 */
import {
  type NodeGraphVertexKind,
  type PersistentVolumeReferences,
  persistentVolumeReferences,
  podReferences,
} from './node-references.js';

/**
 * The relations between nodes and the objects their pods use, fed by an informer (the server feeds
 * it from the Pod, PersistentVolume and VolumeAttachment watch caches). Every `set`/`delete` is
 * idempotent and replaces what was known of that object; reads see every write made before them.
 * The objects passed in are read at the call and never kept or mutated.
 */
export interface NodeGraph {
  /**
   * Records a pod (stored JSON) by `metadata.namespace`/`metadata.name`: bound to `spec.nodeName`
   * with the objects it refers to. A pod without `spec.nodeName` is not bound: what was recorded of
   * it is removed. A pod whose node changed moves with all its references.
   */
  setPod(pod: unknown): void;
  /** Forgets a pod and the references only it held. */
  deletePod(namespace: string, name: string): void;
  /** Records a PersistentVolume: reachable through the claim of `spec.claimRef`, with its Secrets. */
  setPersistentVolume(pv: unknown): void;
  /** Forgets a PersistentVolume. */
  deletePersistentVolume(name: string): void;
  /** Records a VolumeAttachment: reachable from `spec.nodeName`. */
  setVolumeAttachment(va: unknown): void;
  /** Forgets a VolumeAttachment. */
  deleteVolumeAttachment(name: string): void;
  /**
   * Whether `node` reaches the object: a pod bound to it; a Secret, ConfigMap, ServiceAccount,
   * claim or ResourceClaim one of its pods refers to; a PersistentVolume bound to such a claim, or a
   * Secret such a volume names; a VolumeAttachment naming it. `namespace` is `""` for
   * PersistentVolumes and VolumeAttachments.
   */
  hasPath(node: string, kind: NodeGraphVertexKind, namespace: string, name: string): boolean;
  /** The bound pods recorded. */
  readonly podCount: number;
}

interface PodEntry {
  readonly node: string;
  /** Vertex keys of the objects it refers to. */
  readonly refs: readonly string[];
}

interface PvEntry {
  readonly claim: string | undefined;
  readonly secrets: readonly string[];
}

const vertexKey = (kind: NodeGraphVertexKind, namespace: string, name: string) =>
  `${kind}\0${namespace}\0${name}`;

function metaString(o: unknown, ...keys: string[]): string {
  let cur: unknown = o;
  for (const k of keys) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, k)) return '';
    cur = (cur as Record<string, unknown>)[k];
  }
  return typeof cur === 'string' ? cur : '';
}

/** A new, empty graph. */
export function createNodeGraph(): NodeGraph {
  const pods = new Map<string, PodEntry>();
  /** Vertex key → node → how many of the node's pods refer to it. */
  const reach = new Map<string, Map<string, number>>();
  const pvs = new Map<string, PvEntry>();
  /** Secret vertex key → the PersistentVolumes naming it. */
  const pvsBySecret = new Map<string, Set<string>>();
  const attachments = new Map<string, string>();

  const count = (key: string, node: string, delta: 1 | -1) => {
    let perNode = reach.get(key);
    if (!perNode) {
      if (delta < 0) return;
      perNode = new Map();
      reach.set(key, perNode);
    }
    const n = (perNode.get(node) ?? 0) + delta;
    if (n > 0) perNode.set(node, n);
    else {
      perNode.delete(node);
      if (perNode.size === 0) reach.delete(key);
    }
  };
  const reaches = (key: string, node: string) => reach.get(key)?.has(node) === true;

  const removePod = (key: string) => {
    const old = pods.get(key);
    if (!old) return;
    pods.delete(key);
    for (const r of old.refs) count(r, old.node, -1);
  };

  const removePv = (name: string) => {
    const old = pvs.get(name);
    if (!old) return;
    pvs.delete(name);
    for (const s of old.secrets) {
      const set = pvsBySecret.get(s);
      set?.delete(name);
      if (set?.size === 0) pvsBySecret.delete(s);
    }
  };

  const pvReaches = (pvName: string, node: string) => {
    const claim = pvs.get(pvName)?.claim;
    return claim !== undefined && reaches(claim, node);
  };

  return {
    setPod(pod) {
      const namespace = metaString(pod, 'metadata', 'namespace');
      const name = metaString(pod, 'metadata', 'name');
      if (name === '') return;
      const key = vertexKey('pod', namespace, name);
      const node = metaString(pod, 'spec', 'nodeName');
      const refs = node === '' ? [] : podReferences(pod).map((r) => vertexKey(r.kind, namespace, r.name));
      const old = pods.get(key);
      // Most pod events are status updates: same node, same references, nothing to do.
      if (
        old &&
        old.node === node &&
        old.refs.length === refs.length &&
        old.refs.every((r, i) => r === refs[i])
      )
        return;
      removePod(key);
      if (node === '') return;
      pods.set(key, { node, refs });
      for (const r of refs) count(r, node, 1);
    },
    deletePod(namespace, name) {
      removePod(vertexKey('pod', namespace, name));
    },
    setPersistentVolume(pv) {
      const name = metaString(pv, 'metadata', 'name');
      if (name === '') return;
      removePv(name);
      const refs: PersistentVolumeReferences = persistentVolumeReferences(pv);
      const entry: PvEntry = {
        claim: refs.claim && vertexKey('persistentvolumeclaim', refs.claim.namespace, refs.claim.name),
        secrets: refs.secrets.map((s) => vertexKey('secret', s.namespace, s.name)),
      };
      pvs.set(name, entry);
      for (const s of entry.secrets) {
        const set = pvsBySecret.get(s) ?? new Set<string>();
        pvsBySecret.set(s, set);
        set.add(name);
      }
    },
    deletePersistentVolume(name) {
      removePv(name);
    },
    setVolumeAttachment(va) {
      const name = metaString(va, 'metadata', 'name');
      if (name === '') return;
      const node = metaString(va, 'spec', 'nodeName');
      if (node === '') attachments.delete(name);
      else attachments.set(name, node);
    },
    deleteVolumeAttachment(name) {
      attachments.delete(name);
    },
    hasPath(node, kind, namespace, name) {
      switch (kind) {
        case 'pod':
          return pods.get(vertexKey('pod', namespace, name))?.node === node;
        case 'persistentvolume':
          return pvReaches(name, node);
        case 'volumeattachment':
          return attachments.get(name) === node;
        case 'secret': {
          const key = vertexKey('secret', namespace, name);
          if (reaches(key, node)) return true;
          for (const pv of pvsBySecret.get(key) ?? []) if (pvReaches(pv, node)) return true;
          return false;
        }
        default:
          return reaches(vertexKey(kind, namespace, name), node);
      }
    },
    get podCount() {
      return pods.size;
    },
  };
}
