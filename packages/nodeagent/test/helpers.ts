import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createRestClient, loadKubeconfig, type RestClient, resolveConnection } from '@orchard/client';
import type { TestServer } from '@orchard/testing';
import type { MachineInfo, MachineProbe, MachineSignals } from '../src/index.js';

/** A machine whose signals a test changes (2 CPUs, 4 GiB, plenty of disk and PIDs, one interface). */
export function fakeMachine(hostname: string): MachineProbe & { set(s: Partial<MachineSignals>): void } {
  const gib = 1024 * 1024 * 1024;
  const info: MachineInfo = {
    cpus: 2,
    memoryBytes: 4 * gib,
    machineID: 'machine-1',
    systemUUID: 'uuid-1',
    bootID: 'boot-1',
    kernelVersion: '6.1.0-test',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    operatingSystem: 'linux',
    architecture: 'amd64',
    hostname,
    addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
  };
  let signals: MachineSignals = {
    memoryAvailableBytes: 3 * gib,
    memoryTotalBytes: 4 * gib,
    diskAvailableBytes: 50 * gib,
    diskTotalBytes: 100 * gib,
    inodesFree: 900_000,
    inodesTotal: 1_000_000,
    pidsInUse: 300,
    pidMax: 4_194_304,
    networkReady: true,
  };
  return {
    info: () => info,
    signals: () => signals,
    set(s) {
      signals = { ...signals, ...s };
    },
  };
}

/** A REST client with node `name`'s own credentials (client certificate CN=system:node:<name>, O=system:nodes). */
export async function nodeClient(api: TestServer, name: string, server?: string): Promise<RestClient> {
  const path = await api.kubeconfigFor({ username: `system:node:${name}`, groups: ['system:nodes'] });
  const connection = resolveConnection(loadKubeconfig(path));
  return createRestClient({ ...connection, ...(server ? { server } : {}) });
}

/** An `orchard-nodeagent` process started by a test, its stdout and stderr gathered into one text. */
export interface AgentRun {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

const agentBin = join(import.meta.dirname, '..', 'bin', 'orchard-nodeagent.mjs');

/** Starts the `orchard-nodeagent` command with `args`. */
export function runAgent(args: string[]): AgentRun {
  const child = spawn(process.execPath, [agentBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const add = (d: Buffer) => {
    out += d;
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out: () => out, exited };
}
