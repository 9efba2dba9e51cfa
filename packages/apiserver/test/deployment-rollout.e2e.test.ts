import { kubectl, kubectlAvailable, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flavorNames, flavorUnderTest } from './helpers/flavors.js';

/**
 * The Deployment → ReplicaSet controller (issue 19 item 9) over HTTP under both flavors (revision
 * annotations in the flavor's label domain, `pod-template-hash` in both), and with stock kubectl under
 * the kubernetes flavor: `create deployment`, `rollout status`, `set image` + `rollout history`, `rollout undo`,
 * `scale`, revisionHistoryLimit, deletion cascading to the ReplicaSets, and the `/scale` sub-resource.
 */
type Rs = {
  metadata: {
    name: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
    ownerReferences: { kind: string; name: string; controller: boolean; blockOwnerDeletion: boolean }[];
  };
  spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
  status: Record<string, number>;
};
type Deploy = {
  metadata: { annotations: Record<string, string>; generation: number };
  status: Record<string, unknown> & {
    conditions: { type: string; status: string; reason: string; message: string }[];
  };
};

describe.each(flavorNames)('the Deployment controller over HTTP (%s flavor)', (flavorName) => {
  const { labelDomain } = flavorUnderTest(flavorName);
  const revision = `deployment.${labelDomain}/revision`;
  const deployments = '/apis/apps/v1/namespaces/default/deployments';
  let api: TestServer;
  const replicaSets = async () => {
    const r = await api.request(
      'GET',
      '/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Dapi',
    );
    return ((r.json as { items?: Rs[] }).items ?? []).sort(
      (a, b) => Number(a.metadata.annotations[revision]) - Number(b.metadata.annotations[revision]),
    );
  };
  const deployment = async () => (await api.request('GET', `${deployments}/api`)).json as Deploy;
  const withImage = (image: string) => ({
    spec: { template: { spec: { containers: [{ name: 'c', image }] } } },
  });
  const patch = (body: unknown) =>
    api.request('PATCH', `${deployments}/api`, {
      body,
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
  const settled = (what: string, check: (d: Deploy) => boolean) =>
    waitFor(
      what,
      async () => {
        const d = await deployment();
        return d.status?.observedGeneration === d.metadata.generation && check(d) ? d : undefined;
      },
      60_000,
    );

  beforeAll(async () => {
    api = await startTestServer({
      flavor: flavorName,
      server: { simulateReplicaReadiness: true, deploymentController: true },
    });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('a new Deployment gets a ReplicaSet <name>-<pod-template-hash> it owns, revision 1, and a complete status', async () => {
    const created = await api.request('POST', deployments, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'api' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'api' } },
          template: {
            metadata: { labels: { app: 'api' } },
            spec: { containers: [{ name: 'c', image: 'img:1' }] },
          },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const d = await settled('rolled out', (x) => x.status.availableReplicas === 2);
    expect(d.metadata.annotations[revision]).toBe('1');
    expect(d.status).toMatchObject({
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
    });
    const [rs] = await replicaSets();
    const hash = rs?.metadata.labels['pod-template-hash'] ?? '';
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rs?.metadata.name).toBe(`api-${hash}`);
    expect(rs?.metadata.annotations[revision]).toBe('1');
    expect(rs?.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Deployment',
        name: 'api',
        controller: true,
        blockOwnerDeletion: true,
      }),
    ]);
    expect(rs?.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2 });
    const progressing = d.status.conditions.find((c) => c.type === 'Progressing');
    expect([progressing?.reason, progressing?.message]).toEqual([
      'NewReplicaSetAvailable',
      `ReplicaSet "api-${hash}" has successfully progressed.`,
    ]);
  });

  it('a new image is revision 2; going back reuses the first ReplicaSet as revision 3', async () => {
    expect((await patch(withImage('img:2'))).status).toBe(200);
    await settled(
      'revision 2',
      (d) => d.metadata.annotations[revision] === '2' && d.status.updatedReplicas === 2,
    );
    expect((await replicaSets()).map((r) => [r.metadata.annotations[revision], r.spec.replicas])).toEqual([
      ['1', 0],
      ['2', 2],
    ]);
    expect((await patch(withImage('img:1'))).status).toBe(200);
    await settled(
      'revision 3',
      (d) => d.metadata.annotations[revision] === '3' && d.status.updatedReplicas === 2,
    );
    const sets = await replicaSets();
    expect(
      sets.map((r) => [r.metadata.annotations[revision], r.spec.template.spec.containers[0]?.image]),
    ).toEqual([
      ['2', 'img:2'],
      ['3', 'img:1'],
    ]);
  });

  it('without --simulate-replica-readiness no replica is reported, all unavailable, as on a cluster without nodes', async () => {
    const idle = await startTestServer({ flavor: flavorName, server: { deploymentController: true } });
    try {
      const created = await idle.request('POST', deployments, {
        body: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'idle' },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app: 'idle' } },
            template: {
              metadata: { labels: { app: 'idle' } },
              spec: { containers: [{ name: 'c', image: 'img:1' }] },
            },
          },
        },
      });
      expect(created.status, created.text).toBe(201);
      const d = await waitFor(
        'status observed',
        async () => {
          const r = (await idle.request('GET', `${deployments}/idle`)).json as Deploy;
          return r.status?.observedGeneration ? r : undefined;
        },
        30_000,
      );
      expect(d.metadata.annotations[revision]).toBe('1');
      // No pods run: no replica exists, so the counts are 0 (omitted) and all 2 are unavailable.
      expect(d.status.unavailableReplicas).toBe(2);
      expect([d.status.replicas, d.status.updatedReplicas, d.status.availableReplicas]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(d.status.conditions.map((c) => [c.type, c.status, c.reason])).toEqual(
        expect.arrayContaining([
          ['Available', 'False', 'MinimumReplicasUnavailable'],
          ['Progressing', 'True', 'NewReplicaSetCreated'],
        ]),
      );
    } finally {
      await idle.stop();
    }
  });

  it('deleting the Deployment deletes its ReplicaSets', async () => {
    expect((await api.request('DELETE', `${deployments}/api`)).status).toBe(200);
    await waitFor(
      'ReplicaSets collected',
      async () => ((await replicaSets()).length === 0 ? true : undefined),
      30_000,
    );
  });

  it('Deployments have a scale sub-resource too', async () => {
    const d = {
      metadata: { name: 'sc' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'sc' } },
        template: { metadata: { labels: { app: 'sc' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    expect((await api.request('POST', deployments, { body: d })).status).toBe(201);
    expect((await api.request('GET', `${deployments}/sc/scale`)).json).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 2 },
      status: { selector: 'app=sc' },
    });
    const put = await api.request('PUT', `${deployments}/sc/scale`, {
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'sc' }, spec: { replicas: 4 } },
    });
    expect(put.json).toMatchObject({ spec: { replicas: 4 } });
    expect((await api.request('GET', `${deployments}/sc`)).json).toMatchObject({
      spec: { replicas: 4 },
      metadata: { generation: 2 },
    });
  });
});

describe.skipIf(!kubectlAvailable())(
  'kubectl rollouts (kubernetes flavor, --simulate-replica-readiness)',
  () => {
    let api: TestServer;
    const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
    const replicaSets = async (app: string) => {
      const r = await api.request(
        'GET',
        `/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3D${app}`,
      );
      return ((r.json as { items: Rs[] }).items ?? []).sort(
        (a, b) =>
          Number(a.metadata.annotations['deployment.kubernetes.io/revision']) -
          Number(b.metadata.annotations['deployment.kubernetes.io/revision']),
      );
    };
    const deployment = async (name: string) =>
      (await api.request('GET', `/apis/apps/v1/namespaces/default/deployments/${name}`)).json as Deploy;

    beforeAll(async () => {
      api = await startTestServer({
        flavor: 'kubernetes',
        server: { simulateReplicaReadiness: true, deploymentController: true },
      });
    });
    afterAll(async () => {
      await api.stop();
    });

    it('create deployment makes a ReplicaSet <name>-<hash> owned by it; rollout status completes', async () => {
      expect(await k('create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=3')).toMatchObject({
        code: 0,
        stdout: 'deployment.apps/web created\n',
      });
      const status = await kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s'], {
        kubeconfig: api.kubeconfigPath,
        timeoutMs: 90_000,
      });
      expect(status).toMatchObject({ code: 0 });
      expect(status.stdout).toContain('deployment "web" successfully rolled out');
      const [rs] = await replicaSets('web');
      const hash = rs?.metadata.labels['pod-template-hash'] ?? '';
      expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
      expect(rs?.metadata.name).toBe(`web-${hash}`);
      expect(rs?.metadata.ownerReferences).toEqual([
        expect.objectContaining({
          kind: 'Deployment',
          name: 'web',
          controller: true,
          blockOwnerDeletion: true,
        }),
      ]);
      expect(rs?.status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3 });
      const d = await deployment('web');
      expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
      expect(d.status).toMatchObject({
        observedGeneration: d.metadata.generation,
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
      });
      expect(d.status.unavailableReplicas).toBeUndefined();
      expect(d.status.conditions.map((c) => [c.type, c.status, c.reason, c.message])).toEqual(
        expect.arrayContaining([
          ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
          [
            'Progressing',
            'True',
            'NewReplicaSetAvailable',
            `ReplicaSet "web-${hash}" has successfully progressed.`,
          ],
        ]),
      );
      const table = await k('get', 'deploy', 'web');
      expect(table.stdout).toMatch(/web\s+3\/3\s+3\s+3\s+/);
    });

    it('set image makes revision 2; rollout history lists both; undo brings revision 1 back as 3', async () => {
      expect(await k('set', 'image', 'deployment/web', 'nginx=nginx:1.26')).toMatchObject({ code: 0 });
      expect(
        await kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s'], {
          kubeconfig: api.kubeconfigPath,
          timeoutMs: 90_000,
        }),
      ).toMatchObject({ code: 0 });
      const sets = await replicaSets('web');
      expect(
        sets.map((r) => [r.metadata.annotations['deployment.kubernetes.io/revision'], r.spec.replicas]),
      ).toEqual([
        ['1', 0],
        ['2', 3],
      ]);
      const history = await k('rollout', 'history', 'deployment/web');
      expect(history.code).toBe(0);
      expect(history.stdout).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n/);
      const rev1 = await k('rollout', 'history', 'deployment/web', '--revision=1');
      expect(rev1.stdout).toContain('nginx:1.25');
      const undo = await k('rollout', 'undo', 'deployment/web');
      expect(undo).toMatchObject({ code: 0, stdout: 'deployment.apps/web rolled back\n' });
      await waitFor('revision 1 back as 3', async () => {
        const now = await replicaSets('web');
        const back = now.find((r) => r.spec.template.spec.containers[0]?.image === 'nginx:1.25');
        return back?.metadata.annotations['deployment.kubernetes.io/revision'] === '3' &&
          back.spec.replicas === 3
          ? back
          : undefined;
      });
      expect(
        await kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s'], {
          kubeconfig: api.kubeconfigPath,
          timeoutMs: 90_000,
        }),
      ).toMatchObject({ code: 0 });
      const after = await k('rollout', 'history', 'deployment/web');
      expect(after.stdout).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n/);
      expect((await deployment('web')).metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    });

    it('scale moves the new ReplicaSet; old ones beyond revisionHistoryLimit are deleted', async () => {
      expect(await k('scale', 'deployment/web', '--replicas=5')).toMatchObject({ code: 0 });
      await waitFor('scaled', async () => {
        const d = await deployment('web');
        return d.status.availableReplicas === 5 && d.status.updatedReplicas === 5 ? d : undefined;
      });
      expect(await k('patch', 'deployment/web', '-p', '{"spec":{"revisionHistoryLimit":0}}')).toMatchObject({
        code: 0,
      });
      await waitFor('old ReplicaSets pruned', async () => {
        const now = await replicaSets('web');
        return now.length === 1 ? now : undefined;
      });
    });

    it('deleting the Deployment deletes its ReplicaSets', async () => {
      expect(await k('delete', 'deployment', 'web')).toMatchObject({ code: 0 });
      await waitFor('ReplicaSets collected', async () =>
        (await replicaSets('web')).length === 0 ? true : undefined,
      );
    });
  },
);

describe.skipIf(!kubectlAvailable())('kubectl rollouts without simulated readiness', () => {
  it('rollout status waits as it would on a cluster without nodes', async () => {
    const api = await startTestServer({ flavor: 'kubernetes', server: { deploymentController: true } });
    try {
      const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
      expect(await k('create', 'deployment', 'idle', '--image=nginx', '--replicas=2')).toMatchObject({
        code: 0,
      });
      const d = await waitFor('status observed', async () => {
        const r = (await api.request('GET', '/apis/apps/v1/namespaces/default/deployments/idle'))
          .json as Deploy;
        return r.status?.observedGeneration ? r : undefined;
      });
      expect(d.status).toMatchObject({ unavailableReplicas: 2 });
      expect(d.status.conditions.map((c) => [c.type, c.status, c.reason])).toEqual(
        expect.arrayContaining([
          ['Available', 'False', 'MinimumReplicasUnavailable'],
          ['Progressing', 'True', 'NewReplicaSetCreated'],
        ]),
      );
      const status = await kubectl(['rollout', 'status', 'deployment/idle', '--timeout=2s'], {
        kubeconfig: api.kubeconfigPath,
      });
      expect(status.code).toBe(1);
      expect(status.stdout).toContain(
        'Waiting for deployment "idle" rollout to finish: 0 out of 2 new replicas have been updated...',
      );
      expect(status.stderr).toContain('timed out waiting for the condition');
    } finally {
      await api.stop();
    }
  });
});
