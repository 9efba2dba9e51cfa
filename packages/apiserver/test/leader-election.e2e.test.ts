import { etcdAvailable, etcdBinary } from '@orchard/store-etcd/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliServer } from './helpers/cli-server.js';
import {
  type EtcdServers,
  eventually,
  leaderIdentityOf,
  quickLeaderElectionFlags,
  startEtcdServers,
} from './helpers/etcd-servers.js';

/**
 * Leader election of the controllers (issue 15 item 5): three CLI servers on one etcd hold one
 * Lease (`kube-system/kube-controller-manager`, coordination.k8s.io); exactly one runs the
 * controllers. The leader killed with SIGKILL: another takes the Lease once it expires and its
 * controllers act (a namespace deletion completes, a new namespace gets its default ServiceAccount
 * and root-CA ConfigMap). A clean stop releases the Lease to the last server. Short timings
 * (`--leader-elect-lease-duration 4s` …) keep the test quick; the defaults are upstream's.
 * Skipped only without an etcd binary (`.ci/run` installs it).
 */
const have = etcdAvailable();
let etcd: EtcdServers | undefined;
let servers: CliServer[] = [];
const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';

beforeAll(async () => {
  if (!have) return;
  etcd = await startEtcdServers(1, 'leader-e2e');
  servers = etcd.servers;
  for (let i = 0; i < 3; i++)
    await etcd.startServer('/leader', ['--flavor', 'kubernetes', ...quickLeaderElectionFlags]);
}, 90_000);
afterAll(async () => {
  await etcd?.stop();
});

function identityOf(s: CliServer): string {
  const id = leaderIdentityOf(s);
  if (id === undefined) throw new Error(`no identity line in the server's log:\n${s.stderr()}`);
  return id;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  leaseTransitions?: number;
  acquireTime?: string;
  renewTime?: string;
}

async function leaseSpec(s: CliServer): Promise<LeaseSpec> {
  const r = await s.request('GET', leasePath);
  expect(r.status, r.text).toBe(200);
  return (r.json as { spec: LeaseSpec }).spec;
}

/** The servers (of `among`) whose log says they lead now: acquired after their last stop. */
function leaders(among: CliServer[]): CliServer[] {
  return among.filter((s) => {
    const log = s.stderr();
    const id = identityOf(s);
    return log.lastIndexOf(`${id} acquired lease`) > log.lastIndexOf(`${id} stopped leading`);
  });
}

/** The namespace's default ServiceAccount and root-CA ConfigMap appear (the controllers act). */
async function controllersServe(s: CliServer, ns: string): Promise<boolean> {
  expect((await s.request('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  return eventually(
    async () =>
      (await s.request('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200 &&
      (await s.request('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status === 200,
    30_000,
  );
}

describe.skipIf(!have)(
  have ? 'leader election on one etcd' : `leader election (skipped: no etcd binary at ${etcdBinary})`,
  () => {
    it('exactly one leader; killed, another takes over and its controllers act; a clean stop hands over', async () => {
      const ids = servers.map(identityOf);
      expect(new Set(ids).size).toBe(3);
      expect(
        await eventually(
          async () => ids.includes((await leaseSpec(servers[0]!)).holderIdentity ?? ''),
          30_000,
        ),
      ).toBe(true);
      const first = await leaseSpec(servers[1]!);
      expect(first).toMatchObject({ leaseDurationSeconds: 4 });
      expect(first.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(leaders(servers).map(identityOf)).toEqual([first.holderIdentity]);
      const leader = servers[ids.indexOf(first.holderIdentity ?? '')]!;
      const others = servers.filter((s) => s !== leader);
      // A write through a follower: the leader's controllers act on it.
      expect(await controllersServe(others[0]!, 'before')).toBe(true);
      const doomed = await others[0]!.request('POST', '/api/v1/namespaces', { metadata: { name: 'doomed' } });
      expect(doomed.status).toBe(201);
      expect(
        (
          await others[0]!.request('POST', '/api/v1/namespaces/doomed/configmaps', {
            metadata: { name: 'c' },
          })
        ).status,
      ).toBe(201);

      await leader.kill9();
      // Deleted while nobody leads: it completes once a successor's namespace controller runs.
      expect((await others[1]!.request('DELETE', '/api/v1/namespaces/doomed')).status).toBe(200);
      expect(
        await eventually(async () => {
          const h = (await leaseSpec(others[0]!)).holderIdentity ?? '';
          return h !== identityOf(leader) && others.map(identityOf).includes(h);
        }, 30_000),
      ).toBe(true);
      const second = await leaseSpec(others[1]!);
      expect(second.leaseTransitions).toBe((first.leaseTransitions ?? 0) + 1);
      expect(leaders(others).map(identityOf)).toEqual([second.holderIdentity]);
      expect(
        await eventually(
          async () => (await others[0]!.request('GET', '/api/v1/namespaces/doomed')).status === 404,
          30_000,
        ),
      ).toBe(true);
      expect(await controllersServe(others[1]!, 'after-kill')).toBe(true);

      // A clean stop releases the Lease; the last server takes it at its next retry.
      const successor = others.find((s) => identityOf(s) === second.holderIdentity)!;
      const last = others.find((s) => s !== successor)!;
      expect(await successor.stop()).toBe(0);
      // The process may exit before its last log lines are read from the pipe.
      const released = `${second.holderIdentity} released lease kube-system/kube-controller-manager`;
      expect(await eventually(async () => successor.stderr().includes(released), 5_000)).toBe(true);
      expect(
        await eventually(async () => (await leaseSpec(last)).holderIdentity === identityOf(last), 30_000),
      ).toBe(true);
      expect((await leaseSpec(last)).leaseTransitions).toBe((second.leaseTransitions ?? 0) + 1);
      expect(await controllersServe(last, 'after-stop')).toBe(true);
    }, 180_000);
  },
);
