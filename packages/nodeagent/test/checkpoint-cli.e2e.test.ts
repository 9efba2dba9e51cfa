import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeconfig, resolveConnection } from '@orchard/client';
import { type FlavorName, flavorByName } from '@orchard/meta';
import { createAndAuthorize, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configTypeOf } from '../src/config.js';
import { type FakeCriRuntime, startFakeCriRuntime } from '../src/index.js';
import { agentCall, checkpointPod, containerStatus } from './agent-port.js';
import { type AgentRun, runAgent } from './helpers.js';

/**
 * `orchard-nodeagent` serving its HTTPS port as a process (issue 17 item 5), under both flavors:
 * `--port 0 --address 127.0.0.1`, a self-signed pair generated in `<root>/pki` (key 0600, reused),
 * `--client-ca-file` (an admin client certificate authenticates; SubjectAccessReview allows it),
 * `--container-runtime-endpoint` at a fake CRI runtime, `runtimeRequestTimeout` from the config
 * file, `--feature-gates ContainerCheckpoint=false` turning the endpoint off, the Node's
 * `daemonEndpoints` naming the port, and a bad `--port` refused at start.
 */
type Obj = Record<string, any>;

async function stop(r: AgentRun | undefined): Promise<void> {
  if (r && r.child.exitCode === null) {
    r.child.kill('SIGTERM');
    await r.exited;
  }
}

describe.each(['orch', 'kubernetes'] as const)('orchard-nodeagent port (%s flavor)', (name: FlavorName) => {
  const flavor = flavorByName(name);
  const { apiVersion, kind } = configTypeOf(flavor);
  let api: TestServer;
  let dir: string;
  let runtime: FakeCriRuntime;
  let admin: { cert: string; key: string };
  let agent: AgentRun | undefined;
  let gateOff: AgentRun | undefined;
  const common = () => {
    const kubeconfig = join(dir, 'node.kubeconfig');
    return ['--kubeconfig', kubeconfig, '--flavor', name, '--port', '0', '--address', '127.0.0.1'];
  };
  const servingUrl = async (r: AgentRun): Promise<string> => {
    await waitFor('the agent to serve', () => /serving on https:\/\/\S+/.test(r.out()), 60_000).catch((e) => {
      throw new Error(`${(e as Error).message}; agent output: ${r.out()}`);
    });
    return (/serving on (https:\/\/\S+)/.exec(r.out()) as RegExpExecArray)[1] as string;
  };

  beforeAll(async () => {
    api = await startTestServer({ flavor: name });
    dir = mkdtempSync(join(tmpdir(), 'nodeagent-port-'));
    writeFileSync(
      join(dir, 'node.kubeconfig'),
      readFileSync(await api.kubeconfigFor({ username: 'system:node:worker-9', groups: ['system:nodes'] })),
    );
    writeFileSync(join(dir, 'client-ca.crt'), api.tls?.ca.cert as string);
    const c = resolveConnection(
      loadKubeconfig(await api.kubeconfigFor({ username: 'ops-admin', groups: ['system:masters'] })),
    );
    admin = { cert: String(c.cert), key: String(c.key) };
    await createAndAuthorize(api, '/api/v1/namespaces/default/pods', checkpointPod('web', 'worker-9'));
    const current = (await api.request('GET', '/api/v1/namespaces/default/pods/web')).json as Obj;
    const put = await api.request('PUT', '/api/v1/namespaces/default/pods/web/status', {
      body: {
        ...current,
        status: { phase: 'Running', containerStatuses: [containerStatus('app', 'cri-o://f00d', true)] },
      },
    });
    expect(put.status, put.text).toBe(200);
    runtime = await startFakeCriRuntime({ socketPath: join(dir, 'cri.sock'), containerIds: ['f00d'] });
  }, 60_000);

  afterAll(async () => {
    await stop(agent);
    await stop(gateOff);
    await runtime?.stop();
    await api?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the checkpoint endpoint with a generated certificate, the client CA and the runtime flag', async () => {
    const config = join(dir, 'config.yaml');
    writeFileSync(config, `apiVersion: ${apiVersion}\nkind: ${kind}\nruntimeRequestTimeout: 30s\n`);
    const root = join(dir, 'root');
    agent = runAgent([
      ...common(),
      '--hostname-override',
      'worker-9',
      '--root-dir',
      root,
      '--config',
      config,
      '--client-ca-file',
      join(dir, 'client-ca.crt'),
      '--container-runtime-endpoint',
      runtime.endpoint,
    ]);
    const url = await servingUrl(agent);
    const base = name === 'kubernetes' ? 'kubelet' : 'nodeagent';
    const ca = readFileSync(join(root, 'pki', `${base}.crt`), 'utf8');
    expect(statSync(join(root, 'pki', `${base}.key`)).mode & 0o777).toBe(0o600);
    expect((await agentCall(url, '/checkpoint/default/web/app', { ca })).status).toBe(401);
    const r = await agentCall(url, '/checkpoint/default/web/app', { ca, cert: admin });
    expect(r.status, r.text).toBe(200);
    const [archive] = JSON.parse(r.text).items as string[];
    expect(archive?.startsWith(join(root, 'checkpoints', 'checkpoint-web_default-app-'))).toBe(true);
    expect(statSync(archive as string).mode & 0o777).toBe(0o600);
    // 30 s runtimeRequestTimeout from the file: the runtime is sent 30 when no longer timeout is asked.
    expect(runtime.calls.at(-1)).toMatchObject({ containerId: 'f00d', timeout: '30' });
    await waitFor(
      'the Node to name the port',
      async () => {
        const node = (await api.request('GET', '/api/v1/nodes/worker-9')).json as Obj;
        return node?.status?.daemonEndpoints?.kubeletEndpoint?.Port === Number(new URL(url).port);
      },
      60_000,
    );
  }, 120_000);

  it('--feature-gates ContainerCheckpoint=false answers 404 after authentication', async () => {
    const root = join(dir, 'root-gate');
    gateOff = runAgent([
      ...common(),
      '--hostname-override',
      'worker-9',
      '--root-dir',
      root,
      '--client-ca-file',
      join(dir, 'client-ca.crt'),
      '--container-runtime-endpoint',
      runtime.endpoint,
      '--feature-gates',
      'ContainerCheckpoint=false',
    ]);
    const url = await servingUrl(gateOff);
    const ca = readFileSync(
      join(root, 'pki', `${name === 'kubernetes' ? 'kubelet' : 'nodeagent'}.crt`),
      'utf8',
    );
    expect((await agentCall(url, '/checkpoint/default/web/app', { ca })).status).toBe(401);
    const r = await agentCall(url, '/checkpoint/default/web/app', { ca, cert: admin });
    expect([r.status, r.text]).toEqual([404, '404: Page Not Found']);
    await stop(gateOff);
  }, 120_000);

  it('refuses a bad --port and an unreadable --client-ca-file at start', async () => {
    const port = runAgent([
      '--kubeconfig',
      join(dir, 'node.kubeconfig'),
      '--hostname-override',
      'worker-x',
      '--root-dir',
      join(dir, 'r2'),
      '--port',
      '70000',
    ]);
    expect(await port.exited).toBe(1);
    expect(port.out()).toContain('--port: "70000" is not a port number (0-65535)');
    const caFile = join(dir, 'missing-ca.crt');
    const ca = runAgent([
      ...common(),
      '--hostname-override',
      'worker-x',
      '--root-dir',
      join(dir, 'r3'),
      '--client-ca-file',
      caFile,
    ]);
    expect(await ca.exited).toBe(1);
    expect(ca.out()).toContain(`${caFile}: cannot read the client CA file`);
  }, 120_000);
});
