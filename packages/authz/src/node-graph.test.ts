import { describe, expect, it } from 'vitest';
import { createNodeGraph } from './node-graph.js';
import { persistentVolumeReferences, podReferences } from './node-references.js';

function pod(name: string, nodeName: string | undefined, spec: Record<string, unknown> = {}, ns = 'default') {
  return {
    metadata: { name, namespace: ns },
    spec: { ...(nodeName !== undefined ? { nodeName } : {}), containers: [{ name: 'c' }], ...spec },
  };
}

/** A pod using every kind of reference the graph knows. */
const everything = {
  imagePullSecrets: [{ name: 'pull' }],
  serviceAccountName: 'runner',
  initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'init-env' } }] }],
  containers: [
    {
      name: 'c',
      envFrom: [{ configMapRef: { name: 'env-cm' } }, { secretRef: { name: 'env-secret' } }],
      env: [
        { name: 'A', valueFrom: { secretKeyRef: { name: 'key-secret', key: 'k' } } },
        { name: 'B', valueFrom: { configMapKeyRef: { name: 'key-cm', key: 'k' } } },
        { name: 'C', value: 'plain' },
      ],
    },
  ],
  ephemeralContainers: [{ name: 'e', env: [{ name: 'D', valueFrom: { secretKeyRef: { name: 'eph' } } }] }],
  volumes: [
    { name: 'v1', secret: { secretName: 'vol-secret' } },
    { name: 'v2', configMap: { name: 'vol-cm' } },
    {
      name: 'v3',
      projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }] },
    },
    { name: 'v4', persistentVolumeClaim: { claimName: 'data' } },
    { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
    { name: 'v6', csi: { driver: 'x', nodePublishSecretRef: { name: 'csi-secret' } } },
    { name: 'v7', rbd: { secretRef: { name: 'rbd-secret' } } },
  ],
  resourceClaims: [{ name: 'gpu', resourceClaimName: 'gpu-claim' }],
};

describe('podReferences', () => {
  it('collects every kind of reference once', () => {
    const refs = podReferences({ ...pod('web', 'n1', everything), status: {} });
    const names = refs.map((r) => `${r.kind}/${r.name}`).sort();
    expect(names).toEqual(
      [
        'configmap/env-cm',
        'configmap/key-cm',
        'configmap/proj-cm',
        'configmap/vol-cm',
        'persistentvolumeclaim/data',
        'persistentvolumeclaim/web-scratch',
        'resourceclaim/gpu-claim',
        'secret/csi-secret',
        'secret/env-secret',
        'secret/eph',
        'secret/init-env',
        'secret/key-secret',
        'secret/proj-secret',
        'secret/pull',
        'secret/rbd-secret',
        'secret/vol-secret',
        'serviceaccount/runner',
      ].sort(),
    );
  });

  it('ignores fields of the wrong type and hostile keys instead of throwing', () => {
    const hostile = JSON.parse(
      '{"metadata":{"name":"x"},"spec":{"__proto__":{"serviceAccountName":"evil"},"volumes":"nope",' +
        '"containers":[null,7,{"env":[{"valueFrom":{"secretKeyRef":{"name":42}}}],"envFrom":{"a":1}}],' +
        '"imagePullSecrets":[{"name":""},{"constructor":"x"}]}}',
    );
    expect(podReferences(hostile)).toEqual([]);
    expect(podReferences(null)).toEqual([]);
    expect(podReferences({ spec: [] })).toEqual([]);
  });

  it('reads the claim and secrets of a PersistentVolume, defaulting secret namespaces to the claim', () => {
    expect(
      persistentVolumeReferences({
        spec: {
          claimRef: { namespace: 'team', name: 'data' },
          csi: {
            nodeStageSecretRef: { name: 'stage' },
            nodePublishSecretRef: { name: 'pub', namespace: 'x' },
          },
          azureFile: { secretName: 'az' },
        },
      }),
    ).toEqual({
      claim: { namespace: 'team', name: 'data' },
      secrets: [
        { namespace: 'team', name: 'az' },
        { namespace: 'x', name: 'pub' },
        { namespace: 'team', name: 'stage' },
      ],
    });
    expect(persistentVolumeReferences({ spec: { claimRef: { name: 'no-ns' } } })).toEqual({ secrets: [] });
  });
});

describe('createNodeGraph', () => {
  it('relates a bound pod and everything it refers to with its node only', () => {
    const g = createNodeGraph();
    g.setPod(pod('web', 'n1', everything));
    expect(g.podCount).toBe(1);
    expect(g.hasPath('n1', 'pod', 'default', 'web')).toBe(true);
    expect(g.hasPath('n2', 'pod', 'default', 'web')).toBe(false);
    for (const [kind, name] of [
      ['secret', 'pull'],
      ['secret', 'vol-secret'],
      ['secret', 'proj-secret'],
      ['configmap', 'env-cm'],
      ['configmap', 'proj-cm'],
      ['serviceaccount', 'runner'],
      ['persistentvolumeclaim', 'data'],
      ['persistentvolumeclaim', 'web-scratch'],
      ['resourceclaim', 'gpu-claim'],
    ] as const) {
      expect(g.hasPath('n1', kind, 'default', name), `${kind}/${name}`).toBe(true);
      expect(g.hasPath('n2', kind, 'default', name), `${kind}/${name} from n2`).toBe(false);
      expect(g.hasPath('n1', kind, 'other', name), `${kind}/${name} in another namespace`).toBe(false);
    }
    expect(g.hasPath('n1', 'secret', 'default', 'unrelated')).toBe(false);
    expect(g.hasPath('n1', 'configmap', 'default', 'vol-secret')).toBe(false);
  });

  it('does not record unbound pods, and binds them when spec.nodeName is set', () => {
    const g = createNodeGraph();
    g.setPod(pod('pending', undefined, { volumes: [{ name: 'v', secret: { secretName: 's' } }] }));
    expect(g.podCount).toBe(0);
    expect(g.hasPath('n1', 'secret', 'default', 's')).toBe(false);
    g.setPod(pod('pending', 'n1', { volumes: [{ name: 'v', secret: { secretName: 's' } }] }));
    expect(g.hasPath('n1', 'secret', 'default', 's')).toBe(true);
  });

  it('removes a deleted pod and keeps objects still referenced by another pod of the node', () => {
    const g = createNodeGraph();
    const vol = { volumes: [{ name: 'v', secret: { secretName: 'shared' } }] };
    g.setPod(pod('a', 'n1', vol));
    g.setPod(pod('b', 'n1', vol));
    g.deletePod('default', 'a');
    expect(g.hasPath('n1', 'pod', 'default', 'a')).toBe(false);
    expect(g.hasPath('n1', 'secret', 'default', 'shared')).toBe(true);
    g.deletePod('default', 'b');
    expect(g.hasPath('n1', 'secret', 'default', 'shared')).toBe(false);
    expect(g.podCount).toBe(0);
    g.deletePod('default', 'never-there');
  });

  it('moves a pod and its references when its node changes, and drops references the update removed', () => {
    const g = createNodeGraph();
    g.setPod(pod('web', 'n1', { serviceAccountName: 'sa', imagePullSecrets: [{ name: 'pull' }] }));
    g.setPod(pod('web', 'n2', { serviceAccountName: 'sa' }));
    expect(g.hasPath('n1', 'pod', 'default', 'web')).toBe(false);
    expect(g.hasPath('n1', 'serviceaccount', 'default', 'sa')).toBe(false);
    expect(g.hasPath('n2', 'serviceaccount', 'default', 'sa')).toBe(true);
    expect(g.hasPath('n2', 'secret', 'default', 'pull')).toBe(false);
    // Unbinding (an update without spec.nodeName) removes it too.
    g.setPod(pod('web', undefined));
    expect(g.hasPath('n2', 'pod', 'default', 'web')).toBe(false);
    expect(g.podCount).toBe(0);
  });

  it('reaches a PersistentVolume and its secrets through the bound claim of a pod', () => {
    const g = createNodeGraph();
    g.setPersistentVolume({
      metadata: { name: 'pv1' },
      spec: {
        claimRef: { namespace: 'default', name: 'data' },
        csi: { nodeStageSecretRef: { name: 'stage' } },
      },
    });
    expect(g.hasPath('n1', 'persistentvolume', '', 'pv1')).toBe(false);
    g.setPod(pod('db', 'n1', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }));
    expect(g.hasPath('n1', 'persistentvolume', '', 'pv1')).toBe(true);
    expect(g.hasPath('n1', 'secret', 'default', 'stage')).toBe(true);
    expect(g.hasPath('n2', 'persistentvolume', '', 'pv1')).toBe(false);
    // The volume released from the claim is no longer reachable.
    g.setPersistentVolume({ metadata: { name: 'pv1' }, spec: {} });
    expect(g.hasPath('n1', 'persistentvolume', '', 'pv1')).toBe(false);
    expect(g.hasPath('n1', 'secret', 'default', 'stage')).toBe(false);
    g.deletePersistentVolume('pv1');
  });

  it('relates a VolumeAttachment to the node it names', () => {
    const g = createNodeGraph();
    g.setVolumeAttachment({ metadata: { name: 'va' }, spec: { nodeName: 'n1' } });
    expect(g.hasPath('n1', 'volumeattachment', '', 'va')).toBe(true);
    expect(g.hasPath('n2', 'volumeattachment', '', 'va')).toBe(false);
    g.deleteVolumeAttachment('va');
    expect(g.hasPath('n1', 'volumeattachment', '', 'va')).toBe(false);
  });

  it('ignores objects without a name', () => {
    const g = createNodeGraph();
    g.setPod({ spec: { nodeName: 'n1' } });
    g.setPersistentVolume({ spec: {} });
    g.setVolumeAttachment({ spec: { nodeName: 'n1' } });
    expect(g.podCount).toBe(0);
  });
});
