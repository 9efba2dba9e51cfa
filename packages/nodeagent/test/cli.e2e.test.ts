import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FlavorName, flavorByName } from '@orchard/meta';
import { kubectl, kubectlAvailable, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configTypeOf } from '../src/config.js';
import { type AgentRun, runAgent } from './helpers.js';

/**
 * `orchard-nodeagent` as a process against the real server with its node kubeconfig (issue 17 items 2
 * and 4), under both flavors: it registers under `--hostname-override` with `--node-labels` and a
 * config file plus drop-in; a bad drop-in stops it naming the file and field; a second agent on the
 * same `--lock-file` is refused. Under the kubernetes flavor stock kubectl shows the node as upstream
 * (`get nodes`, `describe node`, `cordon` → SchedulingDisabled, `uncordon`).
 */
type Obj = Record<string, any>;

describe.each(['orch', 'kubernetes'] as const)('orchard-nodeagent CLI (%s flavor)', (name: FlavorName) => {
  const flavor = flavorByName(name);
  const { apiVersion, kind } = configTypeOf(flavor);
  let api: TestServer;
  let dir: string;
  let nodeKubeconfig: string;
  let agent: AgentRun | undefined;
  // The agent's HTTPS port on a free loopback port (never the shared 10250).
  const common = () => [
    ...['--kubeconfig', nodeKubeconfig, '--flavor', name, '--hostname-override', 'Worker-7'],
    ...['--port', '0', '--address', '127.0.0.1'],
  ];

  beforeAll(async () => {
    api = await startTestServer({ flavor: name });
    dir = mkdtempSync(join(tmpdir(), 'nodeagent-cli-'));
    nodeKubeconfig = await api.kubeconfigFor({ username: 'system:node:worker-7', groups: ['system:nodes'] });
  }, 60_000);
  afterAll(async () => {
    if (agent && agent.child.exitCode === null) {
      agent.child.kill('SIGTERM');
      await agent.exited;
    }
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops at start with the file and field of a bad drop-in', async () => {
    const dropIns = join(dir, 'bad.d');
    await import('node:fs').then((fs) => fs.mkdirSync(dropIns));
    writeFileSync(join(dropIns, '10-bad.conf'), `apiVersion: ${apiVersion}\nkind: ${kind}\nmaxPods: -1\n`);
    const bad = runAgent([...common(), '--root-dir', join(dir, 'root-bad'), '--config-dir', dropIns]);
    expect(await bad.exited).toBe(1);
    expect(bad.out()).toContain(`${join(dropIns, '10-bad.conf')}: maxPods: Invalid value: -1`);
  }, 60_000);

  it('registers its node (lower-cased name) with config, drop-in and --node-labels, and refuses a second agent on the lock', async () => {
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `apiVersion: ${apiVersion}\nkind: ${kind}\nmaxPods: 50\nnodeLabels: {tier: base}\n`,
    );
    const dropIns = join(dir, 'good.d');
    await import('node:fs').then((fs) => fs.mkdirSync(dropIns));
    writeFileSync(join(dropIns, '10-pods.conf'), `apiVersion: ${apiVersion}\nkind: ${kind}\nmaxPods: 64\n`);
    const lock = join(dir, 'nodeagent.lock');
    const args = [...common(), '--root-dir', join(dir, 'root'), '--config', config, '--config-dir', dropIns];
    agent = runAgent([...args, '--lock-file', lock, '--node-labels', 'pool=blue']);
    const a = agent;
    await waitFor('the agent to register', () => a.out().includes('node worker-7 registered'), 60_000).catch(
      (e) => {
        throw new Error(`${(e as Error).message}; agent output: ${a.out()}`);
      },
    );
    const node = (await api.request('GET', '/api/v1/nodes/worker-7')).json as Obj;
    expect(node.status.capacity.pods).toBe('64');
    expect(node.metadata.labels).toMatchObject({ tier: 'base', pool: 'blue' });
    const domain = name === 'kubernetes' ? 'kubernetes.io' : 'orch.io';
    expect(Object.keys(node.metadata.labels)).toEqual(
      expect.arrayContaining([`${domain}/arch`, `${domain}/hostname`, `${domain}/os`]),
    );
    const second = runAgent([...args, '--lock-file', lock]);
    expect(await second.exited).toBe(1);
    expect(second.out()).toContain(`${lock}: another node agent (pid ${a.child.pid}) holds the lock`);
  }, 90_000);

  it.skipIf(name !== 'kubernetes' || !kubectlAvailable())(
    'kubectl get nodes, describe node and cordon/uncordon show it as upstream',
    async () => {
      const k = (args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath, timeoutMs: 60_000 });
      const get = await k(['get', 'nodes']);
      expect(get.code, get.stderr).toBe(0);
      expect(get.stdout).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
      expect(get.stdout).toMatch(/\nworker-7\s+Ready\s+<none>\s+\S+\s+v1\.32\.4-orchard\.0\.1\.0\n/);
      const describeNode = await k(['describe', 'node', 'worker-7']);
      expect(describeNode.code, describeNode.stderr).toBe(0);
      expect(describeNode.stdout).toMatch(/Ready\s+True\s+.*KubeletReady\s+kubelet is posting ready status/);
      expect(describeNode.stdout).toMatch(/MemoryPressure\s+False\s+.*KubeletHasSufficientMemory/);
      expect(describeNode.stdout).toMatch(/Capacity:\n\s+cpu:\s+\d+/);
      expect(describeNode.stdout).toMatch(/pods:\s+64/);
      expect(describeNode.stdout).toMatch(/Kubelet Version:\s+v1\.32\.4-orchard\.0\.1\.0/);
      const cordon = await k(['cordon', 'worker-7']);
      expect(cordon.code, cordon.stderr).toBe(0);
      expect(cordon.stdout).toContain('node/worker-7 cordoned');
      const after = await k(['get', 'node', 'worker-7']);
      expect(after.stdout).toMatch(/worker-7\s+Ready,SchedulingDisabled\s/);
      const uncordon = await k(['uncordon', 'worker-7']);
      expect(uncordon.stdout).toContain('node/worker-7 uncordoned');
      expect(
        ((await api.request('GET', '/api/v1/nodes/worker-7')).json as Obj).spec.unschedulable,
      ).toBeUndefined();
    },
    120_000,
  );
});
