import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '@orchard/store';
import { kubectlAvailable, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceIpsKey } from '../src/services/service-allocator.js';
import { openStorage } from '../src/storage/open-storage.js';
import { flavorNames } from './helpers/flavors.js';
import { kubectlSuite } from './helpers/kubectl-suite.js';

/**
 * Service cluster IP and node port allocation (issue 19 item 8): over HTTP under both flavors, stock
 * kubectl against the kubernetes flavor, the range flags, restarts on SQLite (repair), and two
 * servers on one store.
 */
type Svc = { spec: { clusterIP?: string; clusterIPs?: string[]; ports: { nodePort?: number }[] } };
const svcPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/services${name ? `/${name}` : ''}`;
const service = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});

describe.each(flavorNames)('Service allocation over HTTP (%s flavor)', (flavorName) => {
  let api: TestServer;
  const post = (body: unknown) => api.request('POST', svcPath('default'), { body });
  const message = (r: { json: unknown }) => (r.json as { message?: string }).message ?? '';

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('the first IP of the range is kept: the kubernetes Service holds it under the kubernetes flavor only', async () => {
    const r = await api.request('GET', svcPath('default', 'kubernetes'));
    if (flavorName === 'kubernetes') {
      expect(r.status).toBe(200);
      expect((r.json as Svc & { spec: { ports: { port: number }[] } }).spec).toMatchObject({
        clusterIP: '10.0.0.1',
        ports: [{ port: 443 }],
      });
    } else expect(r.status).toBe(404);
  });

  it('a NodePort Service gets a cluster IP from 10.0.0.0/24 and a node port from 30000-32767, both above the static band', async () => {
    const r = await post(service('web', { type: 'NodePort' }));
    expect(r.status, r.text).toBe(201);
    const { spec } = r.json as Svc & { spec: { ipFamilies: string[]; ipFamilyPolicy: string } };
    expect(spec.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    // Automatic values come from above the static band (10.0.0.1-16, ports 30000-30085) while it has room.
    expect(Number(spec.clusterIP?.split('.')[3])).toBeGreaterThan(16);
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    expect(spec).toMatchObject({ ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    const port = spec.ports[0]?.nodePort ?? 0;
    expect(port).toBeGreaterThanOrEqual(30086);
    expect(port).toBeLessThanOrEqual(32767);
  });

  it('a requested IP or node port that is taken or outside the range is upstream’s 422', async () => {
    expect((await post(service('fixed', { clusterIP: '10.0.0.10' }))).status).toBe(201);
    const again = await post(service('fixed2', { clusterIP: '10.0.0.10' }));
    expect(again.status).toBe(422);
    expect(message(again)).toBe(
      'Service "fixed2" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.10"}: failed to allocate IP 10.0.0.10: provided IP is already allocated',
    );
    const outside = await post(service('far', { clusterIP: '192.168.0.1' }));
    expect(outside.status).toBe(422);
    expect(message(outside)).toContain(
      'failed to allocate IP 192.168.0.1: the provided IP (192.168.0.1) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    );
    const web = (await api.request('GET', svcPath('default', 'web'))).json as Svc;
    const port = web.spec.ports[0]?.nodePort;
    const taken = await post(service('web2', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] }));
    expect(taken.status).toBe(422);
    expect(message(taken)).toContain(
      `spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated`,
    );
    const low = await post(service('web3', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }));
    expect(low.status).toBe(422);
    expect(message(low)).toContain(
      'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
  });

  it('headless and ExternalName Services get no IP; an update that leaves the values out keeps them', async () => {
    const headless = await post(service('hl', { clusterIP: 'None' }));
    expect((headless.json as Svc).spec.clusterIPs).toEqual(['None']);
    const external = await post({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'ext' },
      spec: { type: 'ExternalName', externalName: 'example.com' },
    });
    expect(external.status).toBe(201);
    expect((external.json as Svc).spec.clusterIP).toBeUndefined();
    const before = ((await api.request('GET', svcPath('default', 'web'))).json as Svc).spec;
    const replaced = await api.request('PUT', svcPath('default', 'web'), {
      body: service('web', { type: 'NodePort', ports: [{ port: 80 }] }),
    });
    expect(replaced.status, replaced.text).toBe(200);
    const after = (replaced.json as Svc).spec;
    expect([after.clusterIP, after.ports[0]?.nodePort]).toEqual([
      before.clusterIP,
      before.ports[0]?.nodePort,
    ]);
  });

  it('a deleted Service gives its IP and node port back', async () => {
    const { spec } = (await api.request('GET', svcPath('default', 'web'))).json as Svc;
    expect((await api.request('DELETE', svcPath('default', 'web'))).status).toBe(200);
    await api.server.lifecycle.idle();
    const reuse = await waitFor('released values reusable', async () => {
      const r = await post(
        service('reuse', {
          type: 'NodePort',
          clusterIP: spec.clusterIP,
          ports: [{ port: 80, nodePort: spec.ports[0]?.nodePort }],
        }),
      );
      return r.status === 201 ? r : undefined;
    });
    expect((reuse.json as Svc).spec.clusterIP).toBe(spec.clusterIP);
  });
});

describe.skipIf(!kubectlAvailable())('kubectl and Service allocation (kubernetes flavor)', () => {
  const suite = kubectlSuite();
  const { k } = suite;

  it('the kubernetes Service holds the first IP of upstream’s default range 10.0.0.0/24', async () => {
    const r = await k(
      'get',
      'svc',
      'kubernetes',
      '-n',
      'default',
      '-o',
      'jsonpath={.spec.clusterIP} {.spec.ports[0].port}',
    );
    expect(r).toMatchObject({ code: 0, stdout: '10.0.0.1 443' });
  });

  it('create service nodeport shows an allocated port and cluster IP', async () => {
    expect(await k('create', 'service', 'nodeport', 'web', '--tcp=80:8080')).toMatchObject({
      code: 0,
      stdout: 'service/web created\n',
    });
    const got = await k('get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP} {.spec.ports[0].nodePort}');
    const [ip, port] = got.stdout.split(' ');
    expect(ip).toMatch(/^10\.0\.0\.\d+$/);
    expect(ip).not.toBe('10.0.0.1');
    expect(Number(port)).toBeGreaterThanOrEqual(30000);
    expect(Number(port)).toBeLessThanOrEqual(32767);
    // SetDefaults_Service: a NodePort Service's external traffic policy is Cluster (issue 19 item 4).
    expect((await k('get', 'svc', 'web', '-o', 'jsonpath={.spec.externalTrafficPolicy}')).stdout).toBe(
      'Cluster',
    );
    const table = await k('get', 'svc', 'web');
    expect(table.stdout).toMatch(
      new RegExp(`web\\s+NodePort\\s+${ip?.replace(/\./g, '\\.')}\\s+<none>\\s+80:${port}/TCP`),
    );
  });

  it('a requested IP or node port already taken gets upstream’s 422', async () => {
    expect(
      await k('create', 'service', 'clusterip', 'fixed', '--tcp=80', '--clusterip=10.0.0.10'),
    ).toMatchObject({ code: 0 });
    const again = await k('create', 'service', 'clusterip', 'fixed2', '--tcp=80', '--clusterip=10.0.0.10');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'Service "fixed2" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.10"}: failed to allocate IP 10.0.0.10: provided IP is already allocated',
    );
    const outside = await k('create', 'service', 'clusterip', 'far', '--tcp=80', '--clusterip=192.168.0.1');
    expect(outside.stderr).toContain(
      'failed to allocate IP 192.168.0.1: the provided IP (192.168.0.1) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    );
    const port = (await k('get', 'svc', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}')).stdout;
    const taken = await k('create', 'service', 'nodeport', 'web2', '--tcp=80:8080', `--node-port=${port}`);
    expect(taken.stderr).toContain(
      `Service "web2" is invalid: spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated`,
    );
    const low = await k('create', 'service', 'nodeport', 'web3', '--tcp=80:8080', '--node-port=80');
    expect(low.stderr).toContain(
      'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
  });

  it('headless and ExternalName Services get no IP; an update keeps the allocated values', async () => {
    expect(await k('create', 'service', 'clusterip', 'hl', '--clusterip=None')).toMatchObject({ code: 0 });
    expect((await k('get', 'svc', 'hl', '-o', 'jsonpath={.spec.clusterIPs}')).stdout).toBe('["None"]');
    expect(await k('create', 'service', 'externalname', 'ext', '--external-name=example.com')).toMatchObject({
      code: 0,
    });
    expect((await k('get', 'svc', 'ext', '-o', 'jsonpath={.spec.clusterIP}')).stdout).toBe('');
    const before = (
      await k('get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP} {.spec.ports[0].nodePort}')
    ).stdout;
    expect(await k('label', 'svc', 'web', 'tier=front')).toMatchObject({ code: 0 });
    const replaced = await suite.api.request('PUT', svcPath('default', 'web'), {
      body: {
        ...service('web', { type: 'NodePort', ports: [{ name: '80-8080', port: 80, targetPort: 8080 }] }),
      },
    });
    expect(replaced.status).toBe(200);
    const after = (await k('get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP} {.spec.ports[0].nodePort}'))
      .stdout;
    expect(after).toBe(before);
  });

  it('a deleted Service gives its IP and node port back', async () => {
    const [ip, port] = (
      await k('get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP} {.spec.ports[0].nodePort}')
    ).stdout.split(' ');
    expect(await k('delete', 'svc', 'web')).toMatchObject({ code: 0 });
    await suite.api.server.lifecycle.idle();
    const reuse = await waitFor('released values reusable', async () => {
      const r = await suite.api.request('POST', svcPath('default'), {
        body: service('reuse', {
          type: 'NodePort',
          clusterIP: ip,
          ports: [{ port: 80, nodePort: Number(port) }],
        }),
      });
      return r.status === 201 ? r : undefined;
    });
    expect((reuse.json as Svc).spec.clusterIP).toBe(ip);
  });
});

describe.each(flavorNames)(
  'allocation state across restarts (SQLite) and servers sharing a store (%s flavor)',
  (flavorName) => {
    const dir = mkdtempSync(join(tmpdir(), 'orchard-svc-alloc-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const boot = async () => {
      const storage = await openStorage({ backend: 'sqlite', dataDir: dir });
      const api = await startTestServer({
        flavor: flavorName,
        server: {
          store: storage.store,
          serviceClusterIpRange: '10.96.0.0/28',
          serviceNodePortRange: '31000-31009',
        },
      });
      return {
        api,
        storage,
        stop: async () => {
          await api.stop();
          await storage.store.close();
        },
      };
    };

    it('keeps what was allocated, and rebuilds a lost allocation record from the stored Services', async () => {
      const first = await boot();
      const created = await first.api.request('POST', svcPath('default'), {
        body: service('a', { type: 'NodePort' }),
      });
      expect(created.status).toBe(201);
      const a = created.json as Svc;
      await first.stop();

      const second = await boot();
      const clash = await second.api.request('POST', svcPath('default'), {
        body: service('b', { clusterIP: a.spec.clusterIP }),
      });
      expect(clash.status).toBe(422);
      // Lose the record (a restore from an old backup, a range change): the start-up repair rebuilds it.
      await second.storage.store.delete(`${serviceIpsKey}`);
      await second.stop();

      const third = await boot();
      const again = await third.api.request('POST', svcPath('default'), {
        body: service('c', { clusterIP: a.spec.clusterIP }),
      });
      expect(again.status).toBe(422);
      const port = await third.api.request('POST', svcPath('default'), {
        body: service('d', { type: 'NodePort', ports: [{ port: 80, nodePort: a.spec.ports[0]?.nodePort }] }),
      });
      expect(port.status).toBe(422);
      await third.stop();
    });

    it('two servers on one store never hand out the same IP; the range runs out with upstream’s 500', async () => {
      const store = createMemoryStore();
      const opts = { flavor: flavorName, server: { store, serviceClusterIpRange: '10.1.0.0/28' } };
      const [one, two] = [await startTestServer(opts), await startTestServer(opts)];
      try {
        // /28: 14 addresses, the first kept for the kubernetes Service: 13 for these 16 creates.
        const results = await Promise.all(
          [...Array(16).keys()].map((i) =>
            (i % 2 ? one : two).request('POST', svcPath('default'), { body: service(`s${i}`) }),
          ),
        );
        const ok = results.filter((r) => r.status === 201).map((r) => (r.json as Svc).spec.clusterIP);
        expect(ok).toHaveLength(13);
        expect(new Set(ok).size).toBe(13);
        const full = results.filter((r) => r.status !== 201);
        expect(full.map((r) => r.status)).toEqual([500, 500, 500]);
        expect((full[0]?.json as { message?: string } | undefined)?.message).toBe(
          'Internal error occurred: failed to allocate a serviceIP: range is full',
        );
      } finally {
        await one.stop();
        await two.stop();
      }
    });

    it('a bad range stops the start naming the flag', async () => {
      // Awaited: an un-awaited `rejects` could never fail the test.
      await expect(
        startTestServer({ flavor: flavorName, server: { serviceClusterIpRange: '10.0.0.0/8' } }),
      ).rejects.toThrow(
        '--service-cluster-ip-range 10.0.0.0/8: specified --service-cluster-ip-range is too large',
      );
    });
  },
);
