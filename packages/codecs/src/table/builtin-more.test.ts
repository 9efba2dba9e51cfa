import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { builtinTableConvertor } from './builtin.js';
import { endpointsTable, ingressTable, nodeTable, persistentVolumeClaimTable } from './builtin-cluster.js';
import {
  cronJobTable,
  daemonSetTable,
  jobTable,
  replicaSetTable,
  statefulSetTable,
} from './builtin-workloads.js';
import type { TableConvertor } from './types.js';

const now = Date.parse('2024-05-06T10:00:00Z');
const ctx = { now } as Parameters<TableConvertor['cells']>[1];
const meta = (extra: Record<string, unknown> = {}) => ({
  name: 'x',
  namespace: 'default',
  creationTimestamp: '2024-05-06T09:00:00Z',
  ...extra,
});
const cells = (t: TableConvertor, o: Record<string, unknown>) => t.cells(o as ApiObject, ctx);
const template = {
  spec: {
    containers: [
      { name: 'a', image: 'i:1' },
      { name: 'b', image: 'j' },
    ],
  },
};

describe('built-in column sets of the controller kinds (upstream printers)', () => {
  it('ReplicaSet: desired, current, ready, then wide containers, images, selector', () => {
    expect(replicaSetTable.columns.map((c) => c.name)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    const rs = {
      metadata: meta(),
      spec: { replicas: 3, selector: { matchLabels: { app: 'a' } }, template },
      status: { replicas: 2, readyReplicas: 1 },
    };
    expect(cells(replicaSetTable, rs)).toEqual(['x', 3, 2, 1, '60m', 'a,b', 'i:1,j', 'app=a']);
  });

  it('StatefulSet and DaemonSet', () => {
    expect(
      cells(statefulSetTable, {
        metadata: meta(),
        spec: { replicas: 3, template },
        status: { readyReplicas: 2 },
      }),
    ).toEqual(['x', '2/3', '60m', 'a,b', 'i:1,j']);
    const ds = {
      metadata: meta(),
      spec: {
        selector: { matchLabels: { k: 'v' } },
        template: { spec: { ...template.spec, nodeSelector: { os: 'linux' } } },
      },
      status: {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 2,
        numberReady: 1,
        updatedNumberScheduled: 1,
        numberAvailable: 0,
      },
    };
    expect(cells(daemonSetTable, ds)).toEqual(['x', 3, 2, 1, 1, 0, 'os=linux', '60m', 'a,b', 'i:1,j', 'k=v']);
  });

  it.each([
    ['running, one completion', {}, { succeeded: 0 }, 'Running', '0/1'],
    [
      'complete',
      { completions: 3 },
      { succeeded: 3, conditions: [{ type: 'Complete', status: 'True' }] },
      'Complete',
      '3/3',
    ],
    ['failed', { completions: 2 }, { conditions: [{ type: 'Failed', status: 'True' }] }, 'Failed', '0/2'],
    [
      'suspended work queue',
      { parallelism: 4 },
      { conditions: [{ type: 'Suspended', status: 'True' }] },
      'Suspended',
      '0/1 of 4',
    ],
  ])('Job %s', (_name, spec, status, word, completions) => {
    const row = cells(jobTable, { metadata: meta(), spec: { ...spec, template }, status });
    expect(row.slice(0, 3)).toEqual(['x', word, completions]);
  });

  it('Job duration runs from startTime to completionTime, or to now', () => {
    const done = { startTime: '2024-05-06T09:00:00Z', completionTime: '2024-05-06T09:00:42Z' };
    expect(cells(jobTable, { metadata: meta(), spec: {}, status: done })[3]).toBe('42s');
    expect(
      cells(jobTable, { metadata: meta(), spec: {}, status: { startTime: '2024-05-06T09:58:00Z' } })[3],
    ).toBe('2m');
    expect(cells(jobTable, { metadata: meta(), spec: {}, status: {} })[3]).toBe('');
    expect(
      cells(jobTable, {
        metadata: meta({ deletionTimestamp: '2024-05-06T09:59:00Z' }),
        spec: {},
        status: {},
      })[1],
    ).toBe('Terminating');
  });

  it('CronJob: schedule, time zone or <none>, Suspend as True/False, active count, last schedule', () => {
    const cj = {
      metadata: meta(),
      spec: { schedule: '@hourly', suspend: true, jobTemplate: { spec: { template } } },
      status: { active: [{ name: 'j1' }], lastScheduleTime: '2024-05-06T09:59:00Z' },
    };
    expect(cells(cronJobTable, cj)).toEqual([
      'x',
      '@hourly',
      '<none>',
      'True',
      1,
      '60s',
      '60m',
      'a,b',
      'i:1,j',
      '<none>',
    ]);
  });
});

describe('built-in column sets of the cluster kinds (upstream printers)', () => {
  it('Endpoints: ip:port up to three, then "+ N more..."; <none> without subsets', () => {
    const ep = {
      metadata: meta(),
      subsets: [
        { addresses: ['1', '2', '3', '4'].map((n) => ({ ip: `10.0.0.${n}` })), ports: [{ port: 80 }] },
      ],
    };
    expect(cells(endpointsTable, ep)[1]).toBe('10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 1 more...');
    expect(cells(endpointsTable, { metadata: meta() })[1]).toBe('<none>');
  });

  it('Node status, roles and the wide columns', () => {
    const node = {
      metadata: meta({ labels: { 'node-role.kubernetes.io/worker': '', 'kubernetes.io/role': 'edge' } }),
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'Ready', status: 'False' }],
        addresses: [{ type: 'InternalIP', address: '10.1.1.1' }],
      },
    };
    expect(cells(nodeTable, node)).toEqual([
      'x',
      'NotReady,SchedulingDisabled',
      'edge,worker',
      '60m',
      '',
      '10.1.1.1',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ]);
    expect(cells(nodeTable, { metadata: meta(), status: {} })[1]).toBe('Unknown');
  });

  it('a PVC shows capacity and access modes once bound', () => {
    const pvc = {
      metadata: meta(),
      spec: { volumeName: 'pv1', storageClassName: 'fast', volumeMode: 'Filesystem' },
      status: {
        phase: 'Bound',
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
      },
    };
    expect(cells(persistentVolumeClaimTable, pvc)).toEqual([
      'x',
      'Bound',
      'pv1',
      '1Gi',
      'RWO,RWX',
      'fast',
      '<unset>',
      '60m',
      'Filesystem',
    ]);
  });

  it('Ingress hosts, ports with TLS, class', () => {
    const ing = { metadata: meta(), spec: { rules: [{ host: 'a.com' }, {}], tls: [{}] } };
    expect(cells(ingressTable, ing)).toEqual(['x', '<none>', 'a.com,*', '', '80, 443', '60m']);
  });

  it('hostile or malformed objects print blanks, never throw', () => {
    const hostile = JSON.parse(
      '{"metadata":{"__proto__":{"name":1}},"spec":{"template":"x","selector":[1]},"status":"bad"}',
    );
    for (const t of [
      replicaSetTable,
      statefulSetTable,
      daemonSetTable,
      jobTable,
      cronJobTable,
      endpointsTable,
      nodeTable,
      ingressTable,
    ])
      expect(() => cells(t, hostile)).not.toThrow();
  });

  it('is found by group and resource under either flavor', () => {
    expect(builtinTableConvertor({ group: 'batch', resource: 'jobs' }, kubernetesFlavor)).toBe(jobTable);
    expect(builtinTableConvertor({ group: 'networking.orch.io', resource: 'ingresses' }, orchFlavor)).toBe(
      ingressTable,
    );
    expect(
      builtinTableConvertor({ group: 'networking.k8s.io', resource: 'ingresses' }, orchFlavor),
    ).toBeUndefined();
  });
});
