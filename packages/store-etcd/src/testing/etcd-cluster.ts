import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the Debian `etcd-server` package puts the binary; `ORCHARD_ETCD_BIN` overrides it. */
export const etcdBinary: string = process.env.ORCHARD_ETCD_BIN ?? '/usr/bin/etcd';

/** Whether an etcd binary is installed (tests skip with this reason when not; `.ci/run` installs it). */
export function etcdAvailable(): boolean {
  return existsSync(etcdBinary);
}

export interface EtcdClusterOptions {
  /** Members started, each on its own loopback client and peer ports. Default 1. */
  members?: number;
  /**
   * etcd's `--max-request-bytes`. Default 4 MiB: the Store contract holds values up to 1.5 MiB, and
   * etcd's own default (1.5 MiB) counts the key and framing too.
   */
  maxRequestBytes?: number;
  /** `--experimental-watch-progress-notify-interval`. Default `1s` so tests see progress quickly. */
  progressNotifyInterval?: string;
  /** How long a start or restart may take before it fails. Default 20_000 ms. */
  startTimeoutMs?: number;
}

export interface EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly dataDir: string;
  /** Whether the process is running. */
  readonly running: boolean;
}

/** A running etcd cluster of one or more members in a temporary data directory on loopback. */
export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  /** Client URLs of every member (for `--etcd-servers`). */
  readonly endpoints: string[];
  /** Kills a member at once (SIGKILL); its data stays for `start`. */
  kill(index: number): Promise<void>;
  /** Starts a stopped member again on the same ports and data; resolves when it serves. */
  start(index: number): Promise<void>;
  /** Kills every member and removes the data directory. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `/health` of a member until it answers healthy, or fails after `ms`. */
async function waitHealthy(
  clientUrl: string,
  ms: number,
  proc: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null)
      throw new Error(`etcd exited (${proc.exitCode ?? proc.signalCode}) while starting:\n${log()}`);
    try {
      const res = await fetch(`${clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { health?: string };
      if (res.ok && body.health === 'true') return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd at ${clientUrl} not healthy after ${ms} ms:\n${log()}`);
}

/**
 * Starts a real etcd (3.4, `/usr/bin/etcd`) with `members` members on free loopback ports, data in a
 * temporary directory (on /dev/shm when present, so fsync costs little). Every wait is bounded.
 */
export async function startEtcdCluster(options: EtcdClusterOptions = {}): Promise<EtcdCluster> {
  const count = options.members ?? 1;
  const maxRequestBytes = options.maxRequestBytes ?? 4 * 1024 * 1024;
  const progress = options.progressNotifyInterval ?? '1s';
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const root = mkdtempSync(join(base, 'orchard-etcd-'));
  const token = `orchard-${process.pid}-${Date.now()}`;
  const specs: Array<{ name: string; clientUrl: string; peerUrl: string; dataDir: string }> = [];
  for (let i = 0; i < count; i++) {
    const [cp, pp] = [await freePort(), await freePort()];
    specs.push({
      name: `m${i}`,
      clientUrl: `http://127.0.0.1:${cp}`,
      peerUrl: `http://127.0.0.1:${pp}`,
      dataDir: join(root, `m${i}`),
    });
  }
  const initialCluster = specs.map((s) => `${s.name}=${s.peerUrl}`).join(',');
  const procs: Array<ChildProcess | undefined> = specs.map(() => undefined);
  const logs: string[] = specs.map(() => '');

  function launch(i: number): ChildProcess {
    const s = specs[i]!;
    const proc = spawn(
      etcdBinary,
      [
        `--name=${s.name}`,
        `--data-dir=${s.dataDir}`,
        `--listen-client-urls=${s.clientUrl}`,
        `--advertise-client-urls=${s.clientUrl}`,
        `--listen-peer-urls=${s.peerUrl}`,
        `--initial-advertise-peer-urls=${s.peerUrl}`,
        `--initial-cluster=${initialCluster}`,
        '--initial-cluster-state=new',
        `--initial-cluster-token=${token}`,
        `--max-request-bytes=${maxRequestBytes}`,
        `--experimental-watch-progress-notify-interval=${progress}`,
        '--logger=zap',
        '--log-level=error',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    logs[i] = '';
    proc.stderr?.on('data', (d: Buffer) => {
      // Keep the tail only: enough to explain a failed start.
      logs[i] = (logs[i]! + d.toString()).slice(-4000);
    });
    procs[i] = proc;
    return proc;
  }

  const stopAll = async (): Promise<void> => {
    await Promise.all(procs.map((p, i) => (p ? killProc(i) : undefined)));
    rmSync(root, { recursive: true, force: true });
  };

  async function killProc(i: number): Promise<void> {
    const p = procs[i];
    procs[i] = undefined;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise<void>((r) => p.once('exit', () => r()));
    p.kill('SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  }

  try {
    const started = specs.map((_, i) => launch(i));
    await Promise.all(
      specs.map((s, i) => waitHealthy(s.clientUrl, startTimeoutMs, started[i]!, () => logs[i]!)),
    );
  } catch (e) {
    await stopAll();
    throw e;
  }

  return {
    get members() {
      return specs.map((s, i) => {
        const p = procs[i];
        return { ...s, running: p !== undefined && p.exitCode === null && p.signalCode === null };
      });
    },
    endpoints: specs.map((s) => s.clientUrl),
    kill: (i) => killProc(i),
    async start(i) {
      if (procs[i]) return;
      const proc = launch(i);
      await waitHealthy(specs[i]!.clientUrl, startTimeoutMs, proc, () => logs[i]!);
    },
    stop: stopAll,
  };
}
