import { setMaxListeners } from 'node:events';
import type { RequestOptions, RestClient } from '@orchard/client';
import type { Flavor } from '@orchard/meta';
import { type NodeAgent, type NodeAgentOptions, startNodeAgent } from './agent.js';
import { sleep } from './backoff.js';
import type { HeartbeatEvent } from './lease.js';
import type { MachineInfo, MachineProbe, MachineSignals } from './machine.js';

/** The group every node identity is in (doc 2 §5.3, node authorization). */
export const nodesGroup = 'system:nodes';

/** The user name of node `name`'s identity: `system:node:<name>`. */
export const nodeUserName = (name: string): string => `system:node:${name}`;

/**
 * A view of `base` that acts as `user` in `groups` through the impersonation headers (doc 2 §4.4) on
 * every request. It shares `base`'s keep-alive connections, so N identities cost no more sockets than
 * one. The caller of `base` needs the `impersonate` verb on `users` (that name) and `groups`.
 */
export function impersonatingClient(base: RestClient, user: string, groups: readonly string[]): RestClient {
  if (groups.length > 1) throw new Error('impersonatingClient: at most one group (one header value)');
  const headers: Record<string, string> = { 'Impersonate-User': user };
  if (groups[0] !== undefined) headers['Impersonate-Group'] = groups[0];
  const withHeaders = (o: RequestOptions): RequestOptions => ({
    ...o,
    headers: { ...o.headers, ...headers },
  });
  return {
    connection: base.connection,
    raw: (o) => base.raw(withHeaders(o)),
    json: <T>(o: RequestOptions) => base.json<T>(withHeaders(o)),
    stream: (o) => base.stream(withHeaders(o)),
  };
}

const gib = 1024 * 1024 * 1024;

/**
 * The synthetic machine of fake node number `index` (named `name`): 16 CPUs, 64 GiB, 500 GiB of disk,
 * an InternalIP in 10.128.0.0/9 derived from the index, identifiers derived from the name, and
 * healthy signals (no pressure, network ready) that never change.
 */
export function fakeNodeMachine(name: string, index: number): MachineProbe {
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
  const id = `${hex(index, 8)}${'0'.repeat(24)}`;
  const info: MachineInfo = {
    cpus: 16,
    memoryBytes: 64 * gib,
    machineID: id,
    systemUUID: `${id.slice(0, 8)}-0000-4000-8000-${id.slice(20, 32)}`,
    bootID: `${hex(index, 8)}-0000-4000-8000-000000000001`,
    kernelVersion: '6.1.0-fake',
    osImage: 'Orchard fake node',
    operatingSystem: 'linux',
    architecture: 'amd64',
    hostname: name,
    addresses: [
      {
        type: 'InternalIP',
        address: `10.${128 + ((index >> 16) & 127)}.${(index >> 8) & 255}.${index & 255}`,
      },
    ],
  };
  const signals: MachineSignals = {
    memoryAvailableBytes: 60 * gib,
    memoryTotalBytes: 64 * gib,
    diskAvailableBytes: 450 * gib,
    diskTotalBytes: 500 * gib,
    inodesFree: 30_000_000,
    inodesTotal: 32_000_000,
    pidsInUse: 400,
    pidMax: 4_194_304,
    networkReady: true,
  };
  return { info: () => info, signals: () => signals };
}

/** Settings of `startFakeNodes`. */
export interface FakeNodesOptions
  extends Omit<NodeAgentOptions, 'client' | 'nodeName' | 'machine' | 'onEvent' | 'flavor'> {
  /**
   * The one privileged client every node acts through (impersonating `system:node:<name>` in
   * `system:nodes`); its keep-alive agent is shared by all nodes.
   */
  readonly client: RestClient;
  readonly flavor: Flavor;
  /** How many nodes. */
  readonly count: number;
  /** Node names are `<prefix><i>`, i from 0. Default `fake-node-`. */
  readonly prefix?: string;
  /**
   * Each node starts after a random delay below this (ms), so N Leases do not renew in lockstep.
   * Default: the Lease renewal interval (10 s).
   */
  readonly startJitterMs?: number;
  /** The machine of node `i`. Default `fakeNodeMachine`. */
  readonly machine?: (name: string, index: number) => MachineProbe;
  /** Every heartbeat event of every node. */
  readonly onEvent?: (node: string, e: HeartbeatEvent) => void;
  /** Random numbers in [0, 1) for the start jitter. Default `Math.random`. */
  readonly random?: () => number;
}

/** N simulated nodes running in this process. */
export interface FakeNodes {
  /** The node names, in index order. */
  readonly names: readonly string[];
  /** Resolves once every node has registered. */
  readonly registered: Promise<void>;
  /** Stops every node (each Lease is left to expire, as when a real agent stops). */
  stop(): Promise<void>;
}

/**
 * Runs `count` simulated nodes in one process, as kwok does (issue 17 item 8): each is a full
 * `startNodeAgent` — its own Node (labels, capacity, conditions of its synthetic machine), its own
 * Lease renewed on the normal schedule, its own independent Lease and status loops — acting as its
 * own identity through impersonation, so the Node authorizer and NodeRestriction admit exactly that
 * node's own writes. Starts are spread over `startJitterMs`.
 */
export function startFakeNodes(o: FakeNodesOptions): FakeNodes {
  const {
    client,
    count,
    prefix = 'fake-node-',
    startJitterMs,
    machine,
    onEvent,
    random,
    ...agentOptions
  } = o;
  if (!Number.isInteger(count) || count < 1) throw new Error(`fake nodes: count must be a positive integer`);
  const jitter = startJitterMs ?? o.leaseRenewIntervalMs ?? 10_000;
  const rand = random ?? Math.random;
  const stopping = new AbortController();
  setMaxListeners(count + 10, stopping.signal); // one listener per node waiting to start
  const names = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const agents: (NodeAgent | undefined)[] = [];
  const started = names.map(async (name, i) => {
    await sleep(Math.floor(rand() * jitter), stopping.signal);
    if (stopping.signal.aborted) return;
    const agent = startNodeAgent({
      ...agentOptions,
      client: impersonatingClient(client, nodeUserName(name), [nodesGroup]),
      nodeName: name,
      machine: (machine ?? fakeNodeMachine)(name, i),
      ...(onEvent ? { onEvent: (e: HeartbeatEvent) => onEvent(name, e) } : {}),
    });
    agents[i] = agent;
    await agent.registered;
  });
  return {
    names,
    registered: Promise.all(started).then(() => undefined),
    async stop() {
      stopping.abort();
      await Promise.all(agents.map((a) => a?.stop()));
    },
  };
}
