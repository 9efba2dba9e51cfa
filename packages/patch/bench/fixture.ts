/** A Deployment with about 200 leaf fields, and equivalent patches of each type. */
export function deployment200(): Record<string, unknown> {
  const containers = Array.from({ length: 8 }, (_, c) => ({
    name: `c${c}`,
    image: `registry.example.com/app-${c}:1.0.${c}`,
    imagePullPolicy: 'IfNotPresent',
    args: ['--port', String(8000 + c)],
    ports: [{ containerPort: 8000 + c, protocol: 'TCP', name: `http-${c}` }],
    env: Array.from({ length: 8 }, (_, e) => ({ name: `VAR_${c}_${e}`, value: `value-${c}-${e}` })),
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
  }));
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      labels: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`label-${i}`, `v${i}`])),
      annotations: { 'example.com/owner': 'team-a' },
    },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers, restartPolicy: 'Always' } },
    },
  };
}

/** Leaf count of a JSON value. */
export function leaves(v: unknown): number {
  if (v === null || typeof v !== 'object') return 1;
  return Object.values(v as object).reduce((n: number, x) => n + leaves(x), 0);
}

/** The same change in each patch form: replicas, one label, one container's image, one env value. */
export const jsonPatch = [
  { op: 'replace', path: '/spec/replicas', value: 5 },
  { op: 'add', path: '/metadata/labels/release', value: 'canary' },
  {
    op: 'replace',
    path: '/spec/template/spec/containers/3/image',
    value: 'registry.example.com/app-3:2.0.0',
  },
  { op: 'replace', path: '/spec/template/spec/containers/3/env/2/value', value: 'changed' },
] as const;

export const strategicPatch = {
  metadata: { labels: { release: 'canary' } },
  spec: {
    replicas: 5,
    template: {
      spec: {
        containers: [
          {
            name: 'c3',
            image: 'registry.example.com/app-3:2.0.0',
            env: [{ name: 'VAR_3_2', value: 'changed' }],
          },
        ],
      },
    },
  },
};

/** A merge patch must carry the whole containers list to change one element. */
export function mergePatchFor(doc: Record<string, unknown>): Record<string, unknown> {
  const containers = structuredClone((doc as any).spec.template.spec.containers);
  containers[3].image = 'registry.example.com/app-3:2.0.0';
  containers[3].env[2].value = 'changed';
  return {
    metadata: { labels: { release: 'canary' } },
    spec: { replicas: 5, template: { spec: { containers } } },
  };
}
