import {
  createAndAuthorize,
  kubectl,
  kubectlAvailable,
  startTestServer,
  type TestServer,
} from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The Node authorizer as stock kubectl 1.32 meets it (`--flavor kubernetes`, default
 * `--authorization-mode=Node,RBAC`): a kubeconfig with a client certificate CN=system:node:n1,
 * O=system:nodes reads the pod bound to it, is refused an unbound pod's secret with upstream's 403,
 * and `kubectl auth can-i` (Protobuf SelfSubjectAccessReview) answers as the Node authorizer decides.
 */
describe.skipIf(!kubectlAvailable())('Node authorization with kubectl', () => {
  let api: TestServer;
  let asNode: (args: string[]) => ReturnType<typeof kubectl>;
  const core = '/api/v1/namespaces/default';
  const pod = (name: string, nodeName: string, secret: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      nodeName,
      containers: [{ name: 'c', image: 'nginx:1' }],
      volumes: [{ name: 's', secret: { secretName: secret } }],
    },
  });

  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
    for (const name of ['bound-secret', 'other-secret'])
      await createAndAuthorize(api, `${core}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name },
      });
    await createAndAuthorize(api, `${core}/pods`, pod('web', 'n1', 'bound-secret'));
    await createAndAuthorize(api, `${core}/pods`, pod('elsewhere', 'n2', 'other-secret'));
    const config = await api.kubeconfigFor({ username: 'system:node:n1', groups: ['system:nodes'] });
    asNode = (args) => kubectl(args, { kubeconfig: config });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('kubectl get: the bound pod and its secret are readable, the rest is refused as upstream words it', async () => {
    const web = await asNode(['get', 'pod', 'web', '-o', 'name']);
    expect(web.code, web.stderr).toBe(0);
    expect(web.stdout.trim()).toBe('pod/web');
    const secret = await asNode(['get', 'secret', 'bound-secret', '-o', 'name']);
    expect(secret.code, secret.stderr).toBe(0);
    const denied = await asNode(['get', 'secret', 'other-secret']);
    expect(denied.code).toBe(1);
    expect(denied.stderr.trim()).toBe(
      `Error from server (Forbidden): secrets "other-secret" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`,
    );
    const mine = await asNode(['get', 'pods', '-A', '--field-selector', 'spec.nodeName=n1', '-o', 'name']);
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout.trim()).toBe('pod/web');
    const all = await asNode(['get', 'pods', '-A']);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain('can only list/watch pods with spec.nodeName field selector');
  });

  it('kubectl auth can-i as the node', async () => {
    const table: [string[], string][] = [
      [['get', 'pods/web'], 'yes'],
      [['get', 'secrets/bound-secret'], 'yes'],
      [['get', 'secrets/other-secret'], "no - no relationship found between node 'n1' and this object"],
      [['get', 'pods/elsewhere'], "no - no relationship found between node 'n1' and this object"],
      [['update', 'leases.coordination.k8s.io/n1', '-n', 'kube-node-lease'], 'yes'],
      [
        ['update', 'leases.coordination.k8s.io/n2', '-n', 'kube-node-lease'],
        'no - can only access node lease with the same name as the requesting node',
      ],
      [['list', 'services'], 'yes'],
      [['delete', 'deployments.apps'], 'no'],
    ];
    for (const [args, want] of table) {
      const r = await asNode(['auth', 'can-i', ...args]);
      expect(r.stdout.trim(), `can-i ${args.join(' ')}: ${r.stderr}`).toBe(want);
      expect(r.code).toBe(want === 'yes' ? 0 : 1);
    }
  });
});
