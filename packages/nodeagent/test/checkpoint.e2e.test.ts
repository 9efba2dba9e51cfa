import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeconfig, resolveConnection } from '@orchard/client';
import { type FlavorName, flavorByName } from '@orchard/meta';
import {
  createAndAuthorize,
  serviceAccountTokenAuthentication,
  startTestServer,
  type TestServer,
} from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarEntries } from '../src/checkpoint/tar.js';
import {
  type AgentServer,
  type FakeCriRuntime,
  loadOrCreateServingCert,
  startAgentServer,
  startFakeCriRuntime,
} from '../src/index.js';
import { agentCall, type CallOptions, checkpointPod, containerStatus } from './agent-port.js';
import { nodeClient } from './helpers.js';

/**
 * The checkpoint endpoint of the agent's HTTPS port (spec doc 2 §4.3, issue 17 item 5) against the
 * real server, under both flavors: ServiceAccount tokens checked by TokenReview and authorized by
 * SubjectAccessReview on `nodes/checkpoint` (RBAC grants one account and not another), client
 * certificates against the API server's CA, the pod read with the node's own credentials (Node
 * authorizer on), and a fake CRI runtime on a unix socket writing a real tar. The six responses of
 * §4.3 (200, 401, 404 gate off, 404 not found, 500 runtime error, 500 no checkpoint call), 403 on
 * a denied review, the runtime's deadline, and hostile paths and timeouts.
 */
type Obj = Record<string, any>;
const core = '/api/v1/namespaces/default';

describe.each(['orch', 'kubernetes'] as const)('checkpoint endpoint (%s flavor)', (name: FlavorName) => {
  const flavor = flavorByName(name);
  const rbac = `/apis/${flavor.group('rbac.authorization')}/v1`;
  let api: TestServer;
  let root: string;
  let runtime: FakeCriRuntime;
  let bare: FakeCriRuntime;
  let agent: AgentServer;
  let gateOff: AgentServer;
  let noCall: AgentServer;
  let servingCa: string;
  let allowed: string;
  let denied: string;
  let certOk: { cert: string; key: string };
  let certDenied: { cert: string; key: string };

  const call = (server: AgentServer, path: string, o: CallOptions = {}) =>
    agentCall(server.url, path, { ca: servingCa, ...o });

  const tokenFor = async (account: string): Promise<string> => {
    const r = await api.request('POST', `${core}/serviceaccounts/${account}/token`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    });
    expect(r.status, r.text).toBe(201);
    return (r.json as Obj).status.token;
  };

  const certOf = async (username: string) => {
    const c = resolveConnection(loadKubeconfig(await api.kubeconfigFor({ username, groups: ['ops'] })));
    return { cert: String(c.cert), key: String(c.key) };
  };

  beforeAll(async () => {
    api = await startTestServer({
      flavor: name,
      server: {
        authentication: serviceAccountTokenAuthentication(),
      },
    });
    for (const account of ['checkpointer', 'viewer'])
      await createAndAuthorize(api, `${core}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: account },
      });
    await createAndAuthorize(api, `${rbac}/clusterroles`, {
      apiVersion: `${flavor.group('rbac.authorization')}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'node-checkpointer' },
      rules: [{ apiGroups: [''], resources: ['nodes/checkpoint'], verbs: ['create'] }],
    });
    await createAndAuthorize(api, `${rbac}/clusterrolebindings`, {
      apiVersion: `${flavor.group('rbac.authorization')}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'node-checkpointer' },
      roleRef: {
        apiGroup: flavor.group('rbac.authorization'),
        kind: 'ClusterRole',
        name: 'node-checkpointer',
      },
      subjects: [
        { kind: 'ServiceAccount', name: 'checkpointer', namespace: 'default' },
        { kind: 'User', apiGroup: flavor.group('rbac.authorization'), name: 'cert-user' },
      ],
    });
    await createAndAuthorize(api, `${core}/pods`, checkpointPod('web', 'n1'));
    await createAndAuthorize(api, `${core}/pods`, checkpointPod('elsewhere', 'n2'));
    const current = (await api.request('GET', `${core}/pods/web`)).json as Obj;
    const patched = await api.request('PUT', `${core}/pods/web/status`, {
      body: {
        ...current,
        status: {
          phase: 'Running',
          containerStatuses: [
            containerStatus('app', 'containerd://abc123', true),
            containerStatus('sidecar', '', false),
          ],
        },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    allowed = await tokenFor('checkpointer');
    denied = await tokenFor('viewer');
    certOk = await certOf('cert-user');
    certDenied = await certOf('cert-other');

    root = mkdtempSync(join(tmpdir(), 'orchard-checkpoint-'));
    runtime = await startFakeCriRuntime({ socketPath: join(root, 'cri.sock'), containerIds: ['abc123'] });
    bare = await startFakeCriRuntime({
      socketPath: join(root, 'bare.sock'),
      containerIds: [],
      mode: 'unimplemented',
    });
    const tls = await loadOrCreateServingCert({
      certDir: join(root, 'pki'),
      baseName: name === 'kubernetes' ? 'kubelet' : 'nodeagent',
      hostname: 'n1',
    });
    servingCa = tls.cert;
    const common = {
      client: await nodeClient(api, 'n1'),
      flavor,
      nodeName: 'n1',
      tls,
      clientCa: api.tls?.ca.cert as string,
      address: '127.0.0.1',
      port: 0,
      checkpointsDir: join(root, 'checkpoints'),
      runtimeRequestTimeoutMs: 1000,
      // Denials are not cached: the 405 test grants `get` after the 403 test was refused it.
      auth: { cacheTtls: { unauthorizedMs: 0 } },
    };
    agent = await startAgentServer({ ...common, containerRuntimeEndpoint: runtime.endpoint });
    gateOff = await startAgentServer({
      ...common,
      containerRuntimeEndpoint: runtime.endpoint,
      featureGates: { ContainerCheckpoint: false },
    });
    noCall = await startAgentServer({ ...common, containerRuntimeEndpoint: bare.endpoint });
  }, 120_000);

  afterAll(async () => {
    await agent?.close();
    await gateOff?.close();
    await noCall?.close();
    await runtime?.stop();
    await bare?.stop();
    await api?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('200: the runtime writes a 0600 tar at <root>/checkpoints/checkpoint-<pod>_<ns>-<container>-<RFC 3339>.tar', async () => {
    runtime.setMode('ok');
    const r = await call(agent, '/checkpoint/default/web/app', { token: allowed });
    expect(r.status, r.text).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    const items = JSON.parse(r.text).items as string[];
    expect(items).toHaveLength(1);
    const path = items[0] as string;
    expect(path.startsWith(`${join(root, 'checkpoints')}/checkpoint-web_default-app-`)).toBe(true);
    expect(path).toMatch(/-app-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.tar$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(tarEntries(readFileSync(path)).map((e) => e.name)).toEqual([
      'config.dump',
      'spec.dump',
      'checkpoint/pages-1.img',
    ]);
    // The system tar reads it too.
    expect(execFileSync('tar', ['-tf', path], { encoding: 'utf8' }).trim().split('\n')).toContain(
      'checkpoint/pages-1.img',
    );
    // The scheme is stripped from the status's containerID; no timeout sends the runtime default (1 s here).
    expect(runtime.calls.at(-1)).toEqual({ containerId: 'abc123', location: path, timeout: '1' });
  });

  it('200: a timeout longer than the default is passed to the runtime, the last one when repeated', async () => {
    runtime.setMode('ok');
    const r = await call(agent, '/checkpoint/default/web/app?timeout=3&timeout=7', { token: allowed });
    expect(r.status, r.text).toBe(200);
    expect(runtime.calls.at(-1)?.timeout).toBe('7');
    const huge = await call(agent, '/checkpoint/default/web/app?timeout=9223372036854775807', {
      token: allowed,
    });
    expect(huge.status, huge.text).toBe(200);
    expect(runtime.calls.at(-1)?.timeout).toBe('9223372036854775807');
  });

  it('200 with a client certificate of a granted user; 403 for another', async () => {
    runtime.setMode('ok');
    expect((await call(agent, '/checkpoint/default/web/app', { cert: certOk })).status).toBe(200);
    const r = await call(agent, '/checkpoint/default/web/app', { cert: certDenied });
    expect(r).toMatchObject({
      status: 403,
      text: 'Forbidden (user=cert-other, verb=create, resource=nodes, subresource=checkpoint)',
    });
  });

  it('401 without a credential, with a bad token, on every path', async () => {
    for (const [path, o] of [
      ['/checkpoint/default/web/app', {}],
      ['/checkpoint/default/web/app', { token: 'not-a-token' }],
      ['/checkpoint/default/web/app', { token: `${allowed}x` }],
      ['/pods', {}],
    ] as const) {
      const r = await call(agent, path, o);
      expect([r.status, r.text], path).toEqual([401, 'Unauthorized']);
    }
    expect((await call(gateOff, '/checkpoint/default/web/app')).status).toBe(401);
  });

  it('403 when the SubjectAccessReview denies (upstream kubelet text)', async () => {
    const r = await call(agent, '/checkpoint/default/web/app', { token: denied });
    expect([r.status, r.text]).toEqual([
      403,
      'Forbidden (user=system:serviceaccount:default:viewer, verb=create, resource=nodes, subresource=checkpoint)',
    ]);
    // A GET is authorized as verb get, which the role does not grant.
    const get = await call(agent, '/checkpoint/default/web/app', { token: allowed, method: 'GET' });
    expect([get.status, get.text]).toEqual([
      403,
      'Forbidden (user=system:serviceaccount:default:checkpointer, verb=get, resource=nodes, subresource=checkpoint)',
    ]);
  });

  it('404 with the ContainerCheckpoint gate off', async () => {
    const r = await call(gateOff, '/checkpoint/default/web/app', { token: allowed });
    expect([r.status, r.text]).toEqual([404, '404: Page Not Found']);
  });

  it('404 for an unknown namespace, pod (or one of another node) and container', async () => {
    for (const [path, text] of [
      ['/checkpoint/nowhere/web/app', 'pod does not exist'],
      ['/checkpoint/default/nothing/app', 'pod does not exist'],
      ['/checkpoint/default/elsewhere/app', 'pod does not exist'],
      ['/checkpoint/default/web/nope', 'container nope does not exist'],
    ] as const) {
      const r = await call(agent, path, { token: allowed });
      expect([r.status, r.text], path).toEqual([404, text]);
    }
  });

  it('500 with the runtime error, and for a container without a running instance', async () => {
    runtime.setMode('fail', 'checkpoint/restore support not available');
    const r = await call(agent, '/checkpoint/default/web/app', { token: allowed });
    expect([r.status, r.text]).toEqual([
      500,
      'checkpointing of default/web/app failed (rpc error: code = Internal desc = checkpoint/restore support not available)',
    ]);
    runtime.setMode('ok');
    const idle = await call(agent, '/checkpoint/default/web/sidecar', { token: allowed });
    expect([idle.status, idle.text]).toEqual([
      500,
      'checkpointing of default/web/sidecar failed (container sidecar not found)',
    ]);
    const init = await call(agent, '/checkpoint/default/web/setup', { token: allowed });
    expect([init.status, init.text]).toEqual([
      500,
      'checkpointing of default/web/setup failed (container setup not found)',
    ]);
  });

  it('500 when the runtime lacks the CheckpointContainer call', async () => {
    const r = await call(noCall, '/checkpoint/default/web/app', { token: allowed });
    expect(r.status, r.text).toBe(500);
    expect(r.text).toMatch(
      /^checkpointing of default\/web\/app failed \(rpc error: code = Unimplemented desc = .+\)$/,
    );
  });

  it('500 when the runtime does not answer within the deadline', async () => {
    runtime.setMode('hang');
    try {
      const r = await call(agent, '/checkpoint/default/web/app', { token: allowed });
      expect(r.status, r.text).toBe(500);
      expect(r.text).toMatch(
        /^checkpointing of default\/web\/app failed \(rpc error: code = DeadlineExceeded desc = /,
      );
    } finally {
      runtime.setMode('ok');
    }
  });

  it('hostile input: traversal, extra segments, bad timeouts, other methods', async () => {
    const before = runtime.calls.length;
    // Unclean paths are redirected to their clean form before anything else, as Go's ServeMux does.
    for (const [path, location] of [
      ['/checkpoint/../web/app', '/web/app'],
      ['/checkpoint/default/../app', '/checkpoint/app'],
      ['/checkpoint/default/web/..', '/checkpoint/default'],
      ['/checkpoint/default/web/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc?timeout=1', '/etc?timeout=1'],
      ['/checkpoint//web/app', '/checkpoint/web/app'],
    ] as const) {
      const r = await call(agent, path);
      expect([r.status, r.headers.location], path).toEqual([301, location]);
    }
    for (const [path, status, text] of [
      ['/checkpoint/default/web/app%2Fextra', 404, '404: Page Not Found'],
      ['/checkpoint/default/web/app/extra', 404, '404: Page Not Found'],
      ['/checkpoint/default/web', 404, '404: Page Not Found'],
      ['/checkpoint/__proto__/constructor/app', 404, 'pod does not exist'],
      [`/checkpoint/default/${'a'.repeat(300)}/app`, 404, 'pod does not exist'],
      ['/checkpoint/default/web/app?timeout=abc', 404, 'cannot parse value of timeout parameter'],
      ['/checkpoint/default/web/app?timeout=1.5', 404, 'cannot parse value of timeout parameter'],
      [
        '/checkpoint/default/web/app?timeout=99999999999999999999',
        404,
        'cannot parse value of timeout parameter',
      ],
      ['/checkpoint/default/web/app?timeout=', 404, 'cannot parse value of timeout parameter'],
      ['/checkpoint/default/web/%zz', 400, '400 Bad Request'],
    ] as const) {
      const r = await call(agent, path, { token: allowed });
      expect([r.status, r.text], path).toEqual([status, text]);
    }
    expect(runtime.calls.length).toBe(before);
    const negative = await call(agent, '/checkpoint/default/web/app?timeout=-5', { token: allowed });
    expect([negative.status, negative.text]).toEqual([
      500,
      'checkpointing of default/web/app failed (CheckpointContainer requires the timeout value to be > 0)',
    ]);
    for (const method of ['PUT', 'DELETE']) {
      const r = await call(agent, '/checkpoint/default/web/app', { token: allowed, method });
      expect(r.status, `${method}: ${r.text}`).toBe(403);
    }
    // Nothing but archives was written, all inside <root>/checkpoints.
    expect(readdirSync(root).sort()).toEqual(['bare.sock', 'checkpoints', 'cri.sock', 'pki']);
    for (const f of readdirSync(join(root, 'checkpoints')))
      expect(f).toMatch(/^checkpoint-web_default-app-.+\.tar$/);
  });

  it('405 for another method on the route when the caller may use it', async () => {
    await createAndAuthorize(api, `${rbac}/clusterroles`, {
      apiVersion: `${flavor.group('rbac.authorization')}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'node-checkpoint-reader' },
      rules: [{ apiGroups: [''], resources: ['nodes/checkpoint'], verbs: ['get'] }],
    });
    await createAndAuthorize(api, `${rbac}/clusterrolebindings`, {
      apiVersion: `${flavor.group('rbac.authorization')}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'node-checkpoint-reader' },
      roleRef: {
        apiGroup: flavor.group('rbac.authorization'),
        kind: 'ClusterRole',
        name: 'node-checkpoint-reader',
      },
      subjects: [{ kind: 'ServiceAccount', name: 'checkpointer', namespace: 'default' }],
    });
    const r = await call(agent, '/checkpoint/default/web/app', { token: allowed, method: 'GET' });
    expect([r.status, r.text, r.headers.allow]).toEqual([405, '405: Method Not Allowed', 'POST']);
  });
});
