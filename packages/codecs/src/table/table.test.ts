import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { samplePod } from '../protobuf/fixtures.js';
import {
  builtinTableConvertor,
  configMapTable,
  deploymentTable,
  eventTable,
  leaseTable,
  namespaceTable,
  secretTable,
  serviceAccountTable,
  serviceTable,
} from './builtin.js';
import { podTable } from './builtin-pods.js';
import { defaultCrdPrinterColumns, printerColumnConvertor, toTable } from './table.js';

const now = Date.parse('2024-05-06T10:00:00Z');
const k8s = kubernetesFlavor;
const cm: ApiObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'app',
    namespace: 'default',
    resourceVersion: '7',
    creationTimestamp: '2024-05-06T09:55:00Z',
    labels: { a: 'b' },
  },
  data: { a: '1', b: '2' },
  binaryData: { c: 'AA==' },
};

const cells = (conv: typeof podTable, o: unknown) => conv.cells(o as Record<string, unknown>, { now });

describe('toTable', () => {
  it('default table: Name (format name) and Created At (RFC 3339), Metadata rows, flavor apiVersion', () => {
    const t = toTable(cm, undefined, { flavor: k8s, now });
    expect(t).toMatchObject({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '7' },
      columnDefinitions: [
        { name: 'Name', type: 'string', format: 'name', priority: 0 },
        { name: 'Created At', type: 'date', format: '', priority: 0 },
      ],
      rows: [
        {
          cells: ['app', '2024-05-06T09:55:00Z'],
          object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm.metadata },
        },
      ],
    });
    expect(toTable(cm, undefined, { flavor: orchFlavor, now }).apiVersion).toBe('meta.orch.io/v1');
  });

  it('includeObject Object carries the full object, None carries none', () => {
    expect(toTable([cm], configMapTable, { flavor: k8s, includeObject: 'Object', now }).rows[0]?.object).toBe(
      cm,
    );
    expect(
      toTable([cm], configMapTable, { flavor: k8s, includeObject: 'None', now }).rows[0],
    ).not.toHaveProperty('object');
  });

  it('lists take listMeta; watch events after the first may drop the column definitions', () => {
    const t = toTable([cm, cm], configMapTable, {
      flavor: k8s,
      listMeta: { resourceVersion: '9', continue: 'c' },
      now,
    });
    expect(t.metadata).toEqual({ resourceVersion: '9', continue: 'c' });
    expect(t.rows).toHaveLength(2);
    expect(
      toTable(cm, configMapTable, { flavor: k8s, includeColumnDefinitions: false, now }).columnDefinitions,
    ).toEqual([]);
  });
});

describe('built-in column sets', () => {
  it('configmaps: Name, Data, Age', () => {
    expect(configMapTable.columns.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Data', 'integer'],
      ['Age', 'string'],
    ]);
    expect(cells(configMapTable, cm)).toEqual(['app', 3, '5m']);
  });

  it('pods: Ready, Status, Restarts with last restart, Age, and wide columns', () => {
    expect(podTable.columns.filter((c) => c.priority === 0).map((c) => c.name)).toEqual([
      'Name',
      'Ready',
      'Status',
      'Restarts',
      'Age',
    ]);
    expect(podTable.columns.filter((c) => c.priority === 1).map((c) => c.name)).toEqual([
      'IP',
      'Node',
      'Nominated Node',
      'Readiness Gates',
    ]);
    const pod = samplePod(1);
    expect(cells(podTable, pod)).toEqual([
      'web-1',
      '1/1',
      'Running',
      '1 (172m ago)',
      '171m',
      '10.244.1.1',
      'node-1',
      '<none>',
      '<none>',
    ]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['pending', { phase: 'Pending' }, 'Pending'],
    [
      'waiting container',
      {
        phase: 'Pending',
        containerStatuses: [{ name: 'a', state: { waiting: { reason: 'ImagePullBackOff' } } }],
      },
      'ImagePullBackOff',
    ],
    [
      'crash',
      {
        phase: 'Running',
        containerStatuses: [
          { name: 'a', state: { waiting: { reason: 'CrashLoopBackOff' } }, restartCount: 4 },
        ],
      },
      'CrashLoopBackOff',
    ],
    [
      'exit code',
      { phase: 'Failed', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 2 } } }] },
      'ExitCode:2',
    ],
    [
      'signal',
      {
        phase: 'Failed',
        containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 137, signal: 9 } } }],
      },
      'Signal:9',
    ],
    [
      'completed',
      {
        phase: 'Succeeded',
        containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
      },
      'Completed',
    ],
    [
      'init running',
      { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { running: {} } }] },
      'Init:0/1',
    ],
    [
      'init failed',
      {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'i', state: { terminated: { exitCode: 1, reason: 'Error' } } }],
      },
      'Init:Error',
    ],
    ['evicted', { phase: 'Failed', reason: 'Evicted' }, 'Evicted'],
    [
      'gated',
      {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
      },
      'SchedulingGated',
    ],
  ])('pod status: %s', (_, status, expected) => {
    const pod = {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'a' }], initContainers: [{ name: 'i' }] },
      status,
    };
    expect(cells(podTable, pod)[2]).toBe(expected);
  });

  it('pod being deleted is Terminating; finished pods carry the Completed row condition', () => {
    const pod = {
      metadata: { name: 'p', deletionTimestamp: '2024-05-06T09:00:00Z' },
      spec: { containers: [] },
      status: { phase: 'Running' },
    };
    expect(cells(podTable, pod)[2]).toBe('Terminating');
    expect(podTable.conditions?.({ status: { phase: 'Succeeded' } })).toEqual([
      expect.objectContaining({ type: 'Completed', status: 'True', reason: 'Succeeded' }),
    ]);
    expect(
      toTable({ ...pod, status: { phase: 'Failed' } } as ApiObject, podTable, { flavor: k8s, now }).rows[0]
        ?.conditions,
    ).toHaveLength(1);
  });

  it('secrets, namespaces, serviceaccounts, leases', () => {
    const meta = { name: 'x', creationTimestamp: '2024-05-04T10:00:00Z' };
    expect(cells(secretTable, { metadata: meta, type: 'Opaque', data: { a: 'AA==' } })).toEqual([
      'x',
      'Opaque',
      1,
      '2d',
    ]);
    expect(cells(namespaceTable, { metadata: meta, status: { phase: 'Active' } })).toEqual([
      'x',
      'Active',
      '2d',
    ]);
    expect(cells(serviceAccountTable, { metadata: meta })).toEqual(['x', 0, '2d']);
    expect(cells(leaseTable, { metadata: meta, spec: { holderIdentity: 'node-1' } })).toEqual([
      'x',
      'node-1',
      '2d',
    ]);
  });

  it('services: ports, external IPs per type, selector', () => {
    const base = { metadata: { name: 's', creationTimestamp: '2024-05-06T09:00:00Z' } };
    expect(
      cells(serviceTable, {
        ...base,
        spec: {
          type: 'NodePort',
          clusterIP: '10.0.0.1',
          clusterIPs: ['10.0.0.1'],
          ports: [
            { port: 80, nodePort: 30080, protocol: 'TCP' },
            { port: 53, protocol: 'UDP' },
          ],
          selector: { b: '2', a: '1' },
        },
      }),
    ).toEqual(['s', 'NodePort', '10.0.0.1', '<none>', '80:30080/TCP,53/UDP', '60m', 'a=1,b=2']);
    expect(
      cells(serviceTable, { ...base, spec: { type: 'LoadBalancer', clusterIPs: ['10.0.0.2'] } })[3],
    ).toBe('<pending>');
    expect(
      cells(serviceTable, {
        ...base,
        spec: { type: 'LoadBalancer' },
        status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb.example' }] } },
      })[3],
    ).toBe('1.2.3.4,lb.example');
    expect(
      cells(serviceTable, { ...base, spec: { type: 'ExternalName', externalName: 'db.example' } })[3],
    ).toBe('db.example');
  });

  it('deployments: Ready ready/desired, Up-to-date, Available, wide containers/images/selector', () => {
    const d = {
      metadata: { name: 'web', creationTimestamp: '2024-05-06T09:59:30Z' },
      spec: {
        replicas: 3,
        selector: {
          matchLabels: { app: 'web' },
          matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }],
        },
        template: {
          spec: {
            containers: [
              { name: 'a', image: 'nginx' },
              { name: 'b', image: 'redis' },
            ],
          },
        },
      },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(cells(deploymentTable, d)).toEqual([
      'web',
      '2/3',
      3,
      2,
      '30s',
      'a,b',
      'nginx,redis',
      'app=web,env in (dev,prod)',
    ]);
    // A selector that does not parse prints `<error>`, as upstream's FormatLabelSelector.
    const bad = {
      ...d,
      spec: { ...d.spec, selector: { matchExpressions: [{ key: 'x', operator: 'Near' }] } },
    };
    expect(cells(deploymentTable, bad).at(-1)).toBe('<error>');
  });

  it('events: last seen, object, source, count', () => {
    const e = {
      metadata: { name: 'p.1' },
      involvedObject: { kind: 'Pod', name: 'p', fieldPath: 'spec.containers{a}' },
      reason: 'Pulled',
      message: ' pulled \n',
      type: 'Normal',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2024-05-06T09:00:00Z',
      lastTimestamp: '2024-05-06T09:50:00Z',
      count: 3,
    };
    expect(cells(eventTable, e)).toEqual([
      '10m',
      'Normal',
      'Pulled',
      'pod/p',
      'spec.containers{a}',
      'kubelet, node-1',
      'pulled',
      '60m',
      3,
      'p.1',
    ]);
    expect(
      cells(eventTable, {
        metadata: { name: 'n' },
        eventTime: '2024-05-06T09:59:00.000000Z',
        involvedObject: { kind: 'Node' },
      })[0],
    ).toBe('60s');
  });

  it('are found by group and resource through the flavor', () => {
    expect(builtinTableConvertor({ group: '', resource: 'pods' }, k8s)).toBe(podTable);
    expect(builtinTableConvertor({ group: 'coordination.k8s.io', resource: 'leases' }, k8s)).toBe(leaseTable);
    expect(builtinTableConvertor({ group: 'coordination.orch.io', resource: 'leases' }, orchFlavor)).toBe(
      leaseTable,
    );
    expect(builtinTableConvertor({ group: 'apps', resource: 'deployments' }, k8s)).toBe(deploymentTable);
    expect(builtinTableConvertor({ group: 'example.com', resource: 'widgets' }, k8s)).toBeUndefined();
  });
});

describe('CRD printer columns', () => {
  const widget = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', creationTimestamp: '2024-05-06T09:00:00Z' },
    spec: { replicas: 2.7, ratio: 0.5, enabled: true, tags: ['a', 'b'], nested: { k: 1 } },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };

  it('Name first, then typed JSONPath cells', () => {
    const conv = printerColumnConvertor([
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', priority: 1 },
      { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Tags', type: 'string', jsonPath: '.spec.tags[*]' },
      { name: 'Nested', type: 'string', jsonPath: '.spec.nested' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.nope' },
      { name: 'Wrong', type: 'integer', jsonPath: '.spec.enabled' },
      ...defaultCrdPrinterColumns,
    ]);
    expect(conv.columns.map((c) => `${c.name}:${c.type}:${c.priority}`)).toEqual([
      'Name:string:0',
      'Replicas:integer:0',
      'Ratio:number:1',
      'Enabled:boolean:0',
      'Ready:string:0',
      'Tags:string:0',
      'Nested:string:0',
      'Missing:string:0',
      'Wrong:integer:0',
      'Age:date:0',
    ]);
    expect(conv.cells(widget, { now })).toEqual([
      'w',
      2,
      0.5,
      true,
      'True',
      'a b',
      '{"k":1}',
      null,
      null,
      '60m',
    ]);
  });

  it('rejects an invalid JSONPath when the convertor is built', () => {
    expect(() => printerColumnConvertor([{ name: 'x', type: 'string', jsonPath: '.spec[' }])).toThrow(
      /invalid JSONPath/,
    );
  });
});
