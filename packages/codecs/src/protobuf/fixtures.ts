/**
 * Sample objects in their JSON form, shared by the codec tests and benchmarks (not exported from
 * the package). The Pod exercises most PodSpec/PodStatus shapes: inlined structs, IntOrString,
 * Quantity maps, pointer zeros, Time fields.
 */
import type { ApiObject } from '@orchard/meta';

export function samplePod(i = 0): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-${i}`,
      generateName: 'web-',
      namespace: 'default',
      uid: `0e4f6a1c-5b2d-4c3e-9f00-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
      generation: 1,
      creationTimestamp: '2024-05-06T07:08:09Z',
      labels: { app: 'web', 'pod-template-hash': '5d7f8c9b6' },
      annotations: { 'example.com/owner': 'team-a' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-5d7f8c9b6',
          uid: 'rs-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2024-05-06T07:08:09Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
            'f:spec': { 'f:containers': {} },
          },
        },
      ],
    },
    spec: {
      volumes: [
        {
          name: 'config',
          configMap: { name: 'web-config', defaultMode: 420, items: [{ key: 'a', path: 'a.conf' }] },
        },
        { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [
                    { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                  ],
                },
              },
            ],
          },
        },
      ],
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/web:1.2.3',
          command: ['/bin/web'],
          args: ['--port=8080'],
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'MODE', value: 'prod' },
            { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
            {
              name: 'PASSWORD',
              valueFrom: { secretKeyRef: { name: 'db', key: 'password', optional: false } },
            },
          ],
          envFrom: [{ configMapRef: { name: 'web-env' } }],
          resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
          volumeMounts: [
            { name: 'config', mountPath: '/etc/web', readOnly: true },
            {
              name: 'kube-api-access',
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              readOnly: true,
            },
          ],
          livenessProbe: {
            httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
            initialDelaySeconds: 5,
            timeoutSeconds: 1,
            periodSeconds: 10,
            successThreshold: 1,
            failureThreshold: 3,
          },
          readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 5 },
          lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          securityContext: {
            runAsUser: 0,
            runAsNonRoot: false,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'default',
      serviceAccount: 'default',
      nodeName: 'node-1',
      securityContext: { fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } },
      schedulerName: 'default-scheduler',
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                labelSelector: { matchLabels: { app: 'web' } },
                topologyKey: 'kubernetes.io/hostname',
              },
            },
          ],
        },
      },
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: '2024-05-06T07:08:09Z' },
        { type: 'Ready', status: 'True', lastTransitionTime: '2024-05-06T07:08:15Z' },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: '2024-05-06T07:08:09Z' },
      ],
      hostIP: '10.0.0.11',
      hostIPs: [{ ip: '10.0.0.11' }],
      podIP: `10.244.1.${i % 250}`,
      podIPs: [{ ip: `10.244.1.${i % 250}` }],
      startTime: '2024-05-06T07:08:09Z',
      containerStatuses: [
        {
          name: 'app',
          state: { running: { startedAt: '2024-05-06T07:08:12Z' } },
          lastState: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: '2024-05-06T07:00:00Z',
              finishedAt: '2024-05-06T07:08:00Z',
              containerID: 'containerd://abc',
            },
          },
          ready: true,
          restartCount: i % 3,
          image: 'registry.example.com/web:1.2.3',
          imageID: 'registry.example.com/web@sha256:0123',
          containerID: 'containerd://def',
          started: true,
        },
      ],
      qosClass: 'Burstable',
    },
  };
}

/** A `PodList` of `n` pods, as a list response carries them (items without apiVersion/kind). */
export function samplePodList(n: number): ApiObject & { items: ApiObject[] } {
  const items = Array.from({ length: n }, (_, i) => {
    const { apiVersion: _a, kind: _k, ...rest } = samplePod(i);
    return rest as ApiObject;
  });
  return { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '5000' }, items };
}

/** A one-version CustomResourceDefinition (`a.example.com`) with the given `openAPIV3Schema`. */
export function sampleCrd(openAPIV3Schema: Record<string, unknown>): ApiObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'a.example.com' },
    spec: {
      group: 'example.com',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
    },
  };
}
