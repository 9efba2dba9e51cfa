import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EtcdCluster, startEtcdCluster } from '@orchard/store-etcd/testing';
import { type CliServer, startCliServer } from './cli-server.js';

/** Short leader election timings that keep a handover quick (upstream's are 15s/10s/2s). */
export const quickLeaderElectionFlags: readonly string[] = [
  '--leader-elect-lease-duration',
  '4s',
  '--leader-elect-renew-deadline',
  '3s',
  '--leader-elect-retry-period',
  '500ms',
];

/** A real etcd on loopback and the `orchard-apiserver` processes started on it. */
export interface EtcdServers {
  readonly cluster: EtcdCluster;
  /** A scratch directory (data directories, kubeconfigs); `stop()` removes it. */
  readonly dir: string;
  /** Every server started so far, in order. */
  readonly servers: CliServer[];
  /**
   * Starts one more `orchard-apiserver --storage etcd` on the cluster under key prefix `prefix`, with
   * its own data directory and kubeconfig; `args` go after the storage flags.
   */
  startServer(prefix: string, args?: readonly string[]): Promise<CliServer>;
  /** The admin kubeconfig a server of `servers` wrote. */
  kubeconfigOf(s: CliServer): string;
  /** Kills every server (SIGKILL), stops etcd and removes `dir`. */
  stop(): Promise<void>;
}

/** Starts an etcd cluster of `members` members (`@orchard/store-etcd/testing`) for CLI servers to share. */
export async function startEtcdServers(members: number, name: string): Promise<EtcdServers> {
  const dir = mkdtempSync(join(tmpdir(), `orchard-${name}-`));
  let cluster: EtcdCluster;
  try {
    cluster = await startEtcdCluster({ members });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const servers: CliServer[] = [];
  const kubeconfigs = new Map<CliServer, string>();
  let n = 0;
  return {
    cluster,
    dir,
    servers,
    async startServer(prefix, args = []) {
      const i = n++;
      const kubeconfig = join(dir, `kubeconfig-${i}`);
      const s = await startCliServer(
        [
          '--storage',
          'etcd',
          '--etcd-servers',
          cluster.endpoints.join(','),
          '--etcd-prefix',
          prefix,
          '--data-dir',
          join(dir, `data-${i}`),
          ...args,
        ],
        kubeconfig,
      );
      servers.push(s);
      kubeconfigs.set(s, kubeconfig);
      return s;
    },
    kubeconfigOf(s) {
      const path = kubeconfigs.get(s);
      if (path === undefined) throw new Error('not a server of this etcd');
      return path;
    },
    async stop() {
      await Promise.all(servers.map((s) => s.kill9()));
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The identity a server started with `--storage etcd` and leader election logs for itself. */
export function leaderIdentityOf(s: CliServer): string | undefined {
  return /leader election: this server is (\S+)\n/.exec(s.stderr())?.[1];
}

/** Polls `check` every `intervalMs` until it holds, at most `ms`; whether it did. */
export async function eventually(
  check: () => Promise<boolean>,
  ms: number,
  intervalMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return false;
}
