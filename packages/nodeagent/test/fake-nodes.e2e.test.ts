import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRestClient, isClientError, loadKubeconfig, resolveConnection } from '@orchard/client';
import { type FlavorName, flavorByName } from '@orchard/meta';
import { kubectl, kubectlAvailable, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configTypeOf } from '../src/config.js';
import { impersonatingClient, nodesGroup, nodeUserName } from '../src/fake-nodes.js';

/**
 * `orchard-nodeagent --fake-nodes 20` against the real server under both flavors (issue 17 item 8):
 * every simulated node registers its own Node, renews its own Lease (each at least twice), acts as its
 * own identity (`system:node:<name>` through impersonation, so the Node authorizer refuses one node
 * writing another's status); once the process stops, every node turns Ready=Unknown after the grace
 * period and gets the `unreachable:NoSchedule` taint (with no node Ready anywhere, no NoExecute taint:
 * upstream's master disruption mode). Stock kubectl lists them (kubernetes flavor).
 */
type Obj = Record<string, any>;
const bin = join(import.meta.dirname, '..', 'bin', 'orchard-nodeagent.mjs');
const count = 20;
const prefix = 'fn-';

describe.each(['orch', 'kubernetes'] as const)(
  'orchard-nodeagent --fake-nodes (%s flavor)',
  (name: FlavorName) => {
    const flavor = flavorByName(name);
    const domain = name === 'kubernetes' ? 'kubernetes.io' : 'orch.io';
    const leases = `/apis/${flavor.group('coordination')}/v1/namespaces/${flavor.nodeLeaseNamespace}/leases`;
    const names = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    let api: TestServer;
    let dir: string;
    let child: ChildProcess | undefined;
    let out = '';
    let exited: Promise<number | null> = Promise.resolve(null);

    const list = async (path: string): Promise<Obj[]> => {
      const r = await api.request('GET', path);
      expect(r.status).toBe(200);
      return ((r.json as Obj).items as Obj[]).filter((o) => o.metadata.name.startsWith(prefix));
    };

    beforeAll(async () => {
      api = await startTestServer({
        flavor: name,
        server: { nodeLifecycle: { gracePeriodMs: 4_000, monitorPeriodMs: 250 } },
      });
      dir = mkdtempSync(join(tmpdir(), 'fake-nodes-'));
      const { apiVersion, kind } = configTypeOf(flavor);
      // A 2 s Lease duration: renewed every 500 ms, so two renewals come quickly.
      const config = join(dir, 'config.yaml');
      writeFileSync(config, `apiVersion: ${apiVersion}\nkind: ${kind}\nnodeLeaseDurationSeconds: 2\n`);
      child = spawn(
        process.execPath,
        [
          bin,
          '--kubeconfig',
          api.kubeconfigPath,
          '--flavor',
          name,
          '--config',
          config,
          '--fake-nodes',
          String(count),
          '--fake-node-prefix',
          prefix,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout?.on('data', (d) => {
        out += d;
      });
      child.stderr?.on('data', (d) => {
        out += d;
      });
      const proc = child;
      exited = new Promise((r) => proc.on('exit', (code) => r(code)));
      await waitFor('the fake nodes to register', () => out.includes(`${count} fake nodes`), 60_000);
    }, 90_000);
    afterAll(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await api?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('registers every node with its own labels, synthetic machine and Ready condition', async () => {
      expect(out).toContain(`${count} fake nodes ${prefix}0…${prefix}${count - 1} registered`);
      const nodes = await list('/api/v1/nodes');
      expect(nodes.map((n) => n.metadata.name).sort()).toEqual([...names].sort());
      for (const n of nodes) {
        expect(n.metadata.labels[`${domain}/hostname`]).toBe(n.metadata.name);
        expect(n.metadata.labels[`${domain}/os`]).toBe('linux');
        expect(n.status.capacity).toMatchObject({ cpu: '16', memory: '64Gi', pods: '110' });
        expect(n.status.conditions.find((c: Obj) => c.type === 'Ready').status).toBe('True');
      }
      const ips = new Set(
        nodes.map((n) => n.status.addresses.find((a: Obj) => a.type === 'InternalIP').address),
      );
      expect(ips.size).toBe(count);
    });

    it('renews every Lease at least twice', async () => {
      const seen = new Map<string, Set<string>>();
      await waitFor(
        'every Lease renewed twice',
        async () => {
          for (const l of await list(leases)) {
            const s = seen.get(l.metadata.name) ?? new Set<string>();
            s.add(l.spec.renewTime);
            seen.set(l.metadata.name, s);
          }
          // The first renewTime seen, then two later ones.
          return seen.size === count && [...seen.values()].every((s) => s.size >= 3) ? true : undefined;
        },
        60_000,
      );
      for (const l of await list(leases)) {
        expect(l.spec.holderIdentity).toBe(l.metadata.name);
        expect(l.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: l.metadata.name });
      }
    });

    it('acts as each node: the Node authorizer refuses one node writing another node', async () => {
      const admin = createRestClient(resolveConnection(loadKubeconfig(api.kubeconfigPath)));
      const asNode0 = impersonatingClient(admin, nodeUserName(names[0] as string), [nodesGroup]);
      const err = await asNode0
        .json({
          method: 'PATCH',
          path: `/api/v1/nodes/${names[1]}/status`,
          body: { status: { conditions: [] } },
          contentType: 'application/merge-patch+json',
        })
        .catch((e: unknown) => e);
      expect(isClientError(err, 'Status') && err.status).toBe(403);
      const own = await asNode0.json<Obj>({ method: 'GET', path: `/api/v1/nodes/${names[0]}` });
      expect(own.metadata.name).toBe(names[0]);
    });

    it.skipIf(name !== 'kubernetes' || !kubectlAvailable())(
      'kubectl get nodes lists them Ready',
      async () => {
        const r = await kubectl(['get', 'nodes'], { kubeconfig: api.kubeconfigPath, timeoutMs: 60_000 });
        expect(r.code, r.stderr).toBe(0);
        for (const n of names) expect(r.stdout).toMatch(new RegExp(`\\n${n}\\s+Ready\\s+<none>\\s`));
      },
    );

    it('turns every node Unknown and tainted unreachable:NoSchedule after the grace period once stopped', async () => {
      child?.kill('SIGTERM');
      expect(await exited).toBe(0);
      const unreachable = `node.${domain}/unreachable`;
      await waitFor(
        'every fake node Unknown and tainted',
        async () => {
          const nodes = await list('/api/v1/nodes');
          return nodes.every(
            (n) =>
              n.status.conditions.find((c: Obj) => c.type === 'Ready').status === 'Unknown' &&
              (n.spec.taints ?? []).some((t: Obj) => t.key === unreachable && t.effect === 'NoSchedule'),
          )
            ? true
            : undefined;
        },
        60_000,
      );
      // No node is Ready anywhere: the controller keeps no NoExecute taint (master disruption mode).
      for (const n of await list('/api/v1/nodes'))
        expect(n.spec.taints.map((t: Obj) => `${t.key}:${t.effect}`)).toEqual([`${unreachable}:NoSchedule`]);
    }, 90_000);
  },
);
