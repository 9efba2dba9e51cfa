import { builtinResources } from '@orchard/apiserver';
import { kubernetesFlavor } from '@orchard/meta';
import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCauses } from './helpers/causes.js';
import { flavorNames, flavorUnderTest } from './helpers/flavors.js';

/**
 * `pods/log` and `pods/ephemeralcontainers` (issue 19 item 7): an unscheduled pod's log is the
 * empty answer upstream gives, bad options and containers get upstream's errors, and `kubectl
 * debug` adds an ephemeral container as on a cluster (no kubelet runs it).
 */
describe.each(flavorNames)('pods/log and pods/ephemeralcontainers (%s flavor)', (flavorName) => {
  const { kubectl: withKubectl } = flavorUnderTest(flavorName);
  let api: TestServer;
  const pods = '/api/v1/namespaces/default/pods';
  const strategic = { 'content-type': 'application/strategic-merge-patch+json' };

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
    for (const [name, containers] of [
      ['one', [{ name: 'app', image: 'nginx' }]],
      [
        'two',
        [
          { name: 'a', image: 'nginx' },
          { name: 'b', image: 'nginx' },
        ],
      ],
    ] as const)
      await api.request('POST', pods, {
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers } },
      });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('an unscheduled pod has an empty log (200 text/plain), as upstream', async () => {
    const r = await api.request('GET', `${pods}/one/log`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain');
    expect(r.text).toBe('');
    expect((await api.request('GET', `${pods}/one/log?follow=true&tailLines=10`)).status).toBe(200);
  });

  it('log errors: missing pod, container choice, bad options, a node without a kubelet', async () => {
    const missing = await api.request('GET', `${pods}/nope/log`);
    expect(missing.status).toBe(404);
    expect((missing.json as { message: string }).message).toBe('pods "nope" not found');
    const choose = await api.request('GET', `${pods}/two/log`);
    expect(choose.status).toBe(400);
    expect((choose.json as { message: string }).message).toBe(
      'a container name must be specified for pod two, choose one of: [a b]',
    );
    const wrong = await api.request('GET', `${pods}/one/log?container=zzz`);
    expect(wrong.status).toBe(400);
    expect((wrong.json as { message: string }).message).toBe('container zzz is not valid for pod one');
    const tail = await api.request('GET', `${pods}/one/log?tailLines=-1`);
    expect(tail.status).toBe(422);
    expectCauses(tail.json, [['tailLines', 'Invalid value: -1: must be greater than or equal to 0']]);

    await api.request('POST', pods, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'placed' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
      },
    });
    const noNode = await api.request('GET', `${pods}/placed/log`);
    expect(noNode.status).toBe(404);
    expect((noNode.json as { message: string }).message).toBe('nodes "n1" not found');
    await api.request('POST', '/api/v1/nodes', {
      body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
    });
    const noKubelet = await api.request('GET', `${pods}/placed/log`);
    expect(noKubelet.status).toBe(503);
    expect((noKubelet.json as { reason: string; message: string }).reason).toBe('ServiceUnavailable');
    expect((noKubelet.json as { message: string }).message).toContain('no kubelet serves node "n1"');
  });

  it('ephemeralcontainers changes only spec.ephemeralContainers, and existing ones stay', async () => {
    const add = await api.request('PATCH', `${pods}/one/ephemeralcontainers`, {
      body: {
        metadata: { labels: { sneaky: 'yes' } },
        spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox', targetContainerName: 'app' }] },
      },
      headers: strategic,
    });
    expect(add.status).toBe(200);
    const pod = add.json as { metadata: { labels?: unknown }; spec: { ephemeralContainers: any[] } };
    expect(pod.metadata.labels).toBeUndefined();
    expect(pod.spec.ephemeralContainers[0]).toMatchObject({
      name: 'dbg',
      image: 'busybox',
      terminationMessagePolicy: 'File',
    });
    const get = await api.request('GET', `${pods}/one/ephemeralcontainers`);
    expect((get.json as { kind: string }).kind).toBe('Pod');

    const change = await api.request('PATCH', `${pods}/one/ephemeralcontainers`, {
      body: { spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox:2' }] } },
      headers: strategic,
    });
    expect(change.status).toBe(422);
    expectCauses(change.json, [
      ['spec.ephemeralContainers[0]', 'existing ephemeral containers "dbg" may not be changed'],
    ]);
    const bad = await api.request('PATCH', `${pods}/one/ephemeralcontainers`, {
      body: {
        spec: {
          ephemeralContainers: [
            { name: 'x', image: 'i', ports: [{ containerPort: 80 }], targetContainerName: 'ghost' },
          ],
        },
      },
      headers: strategic,
    });
    expect(bad.status).toBe(422);
    // The strategic merge puts the new item first (index 0), the kept one after it.
    expectCauses(bad.json, [
      ['spec.ephemeralContainers[0].ports', 'Forbidden: cannot be set for an Ephemeral Container'],
      ['spec.ephemeralContainers[0].targetContainerName', 'Not found: "ghost"'],
    ]);
    // Through the main resource, ephemeral containers cannot be added (pod update rules).
    const main = await api.request('PATCH', `${pods}/two`, {
      body: { spec: { ephemeralContainers: [{ name: 'e', image: 'busybox' }] } },
      headers: strategic,
    });
    expect(main.status).toBe(422);
  });

  describe.skipIf(!withKubectl || !kubectlAvailable())('stock kubectl (kubernetes flavor only)', () => {
    const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });

    it('kubectl logs of an unscheduled pod prints nothing and succeeds, as on a cluster', async () => {
      const r = await k('logs', 'one');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const two = await k('logs', 'two');
      expect(two.code, two.stderr).toBe(0);
      expect(two.stderr).toContain('Defaulted container "a" out of: a, b');
    });

    it('kubectl debug adds an ephemeral container', async () => {
      const r = await k('debug', 'two', '--image=busybox', '--target=a', '--container=probe');
      expect(r.code, r.stderr).toBe(0);
      const pod = JSON.parse((await k('get', 'pod', 'two', '-o', 'json')).stdout);
      expect(pod.spec.ephemeralContainers).toEqual([
        expect.objectContaining({ name: 'probe', image: 'busybox', targetContainerName: 'a' }),
      ]);
    });

    it('kubectl debug of a missing pod is the usual NotFound error', async () => {
      const r = await k('debug', 'nope', '--image=busybox', '--profile=general');
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
    });
  });
});

/**
 * kubectl debug reads `details.name` of a 404 unguarded to tell "ephemeral containers are disabled"
 * (no such sub-resource: details `{}`) from a missing pod (issue 19 item 2): a server whose pods have
 * no `ephemeralcontainers` sub-resource, as a cluster with the feature off, gets upstream's message
 * instead of a client crash.
 */
describe.skipIf(!kubectlAvailable())(
  'kubectl debug without pods/ephemeralcontainers (kubernetes flavor)',
  () => {
    let api: TestServer;
    beforeAll(async () => {
      const resources = builtinResources(kubernetesFlavor).map((r) =>
        r.resource === 'pods'
          ? { ...r, subresources: r.subresources.filter((s) => s.name !== 'ephemeralcontainers') }
          : r,
      );
      api = await startTestServer({ flavor: 'kubernetes', server: { builtinResources: false, resources } });
      await api.request('POST', '/api/v1/namespaces/default/pods', {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'one' },
          spec: { containers: [{ name: 'app', image: 'nginx' }] },
        },
      });
    });
    afterAll(async () => {
      await api.stop();
    });

    it('the 404 carries details {} and kubectl says ephemeral containers are disabled', async () => {
      const patch = await api.request('PATCH', '/api/v1/namespaces/default/pods/one/ephemeralcontainers', {
        body: { spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] } },
        headers: { 'content-type': 'application/strategic-merge-patch+json' },
      });
      expect(patch.status).toBe(404);
      expect(patch.json).toMatchObject({ kind: 'Status', reason: 'NotFound', details: {} });
      const r = await kubectl(['debug', 'one', '--image=busybox'], { kubeconfig: api.kubeconfigPath });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'error: ephemeral containers are disabled for this cluster (error from server: ',
      );
      expect(r.stderr).not.toContain('panic');
    });
  },
);
