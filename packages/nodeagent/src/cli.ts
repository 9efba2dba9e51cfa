import { parseArgs } from 'node:util';
import { createRestClient, loadKubeconfig, resolveConnection } from '@orchard/client';
import { type Flavor, flavorByName } from '@orchard/meta';
import { type NodeAgent, startNodeAgent } from './agent.js';
import { serverFlagOptions, serverFlagUsage, startAgentServerFromConfig } from './checkpoint/cli-server.js';
import type { AgentServer } from './checkpoint/server.js';
import { defaultPressureThresholds, type PressureThresholds, parseThreshold } from './conditions.js';
import { durationMs, loadNodeAgentConfig, type NodeAgentConfig, NodeAgentConfigError } from './config.js';
import { startFakeNodes } from './fake-nodes.js';
import { acquireLock, defaultRootDir, ensureRootLayout, LockHeldError, type RootLayout } from './layout.js';
import type { HeartbeatEvent } from './lease.js';
import { hostMachine } from './machine.js';
import { startWatchdog, type Watchdog, WatchdogError } from './watchdog.js';

const usage = `Usage: orchard-nodeagent --kubeconfig FILE [flags]

  --kubeconfig FILE          credentials of this node (system:node:<name> in system:nodes)  (required)
  --hostname-override NAME   the Node's name (default: the host name, lower case)
  --flavor orch|kubernetes   API identifiers (default orch)
  --config FILE              configuration file (NodeAgentConfiguration / KubeletConfiguration)
  --config-dir DIR           drop-in directory: its *.conf files merge over --config in lexical order
  --root-dir DIR             base directory (default ${defaultRootDir})
  --lock-file FILE           refuse to start while another agent holds this lock file
  --node-labels k=v,...      extra labels for the Node
  --fake-nodes N             run N simulated nodes (<prefix>0 … <prefix>N-1) instead of this machine's,
                             each acting as system:node:<name> through impersonation headers: the
                             kubeconfig user needs the impersonate verb on users and groups
  --fake-node-prefix P       names of the simulated nodes (default fake-node-)
${serverFlagUsage}
  -h, --help                 this text`;

/** Parses `k=v,k2=v2` (`--node-labels`). */
export function parseNodeLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part === '') continue;
    const i = part.indexOf('=');
    if (i <= 0) throw new Error(`--node-labels: ${JSON.stringify(part)} is not key=value`);
    Object.defineProperty(out, part.slice(0, i), {
      value: part.slice(i + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** `--fake-nodes N`: a whole number from 1 to 100,000. */
export function parseFakeNodeCount(text: string): number {
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || Number(text) > maxFakeNodes)
    throw new Error(`--fake-nodes: ${JSON.stringify(text)} is not a whole number from 1 to ${maxFakeNodes}`);
  return Number(text);
}

/** The most simulated nodes one process runs. */
export const maxFakeNodes = 100_000;

/** The pressure thresholds of `evictionHard` over the defaults (validated when the file was read). */
function thresholdsOf(config: NodeAgentConfig): PressureThresholds {
  const out: Record<string, unknown> = { ...defaultPressureThresholds };
  for (const [k, v] of Object.entries(config.evictionHard ?? {})) out[k] = parseThreshold(v);
  return out as unknown as PressureThresholds;
}

/** `systemReserved` and `kubeReserved` per resource (the second wins a key both set; upstream sums them). */
function reservedOf(config: NodeAgentConfig): Record<string, string> | undefined {
  if (!config.systemReserved && !config.kubeReserved) return undefined;
  return { ...config.systemReserved, ...config.kubeReserved };
}

/** The agent's settings from flags and configuration (exported for tests). */
export function agentSettingsFrom(config: NodeAgentConfig) {
  return {
    leaseDurationSeconds: config.nodeLeaseDurationSeconds,
    // Upstream renews at a quarter of the Lease duration: 10 s for the default 40 s.
    leaseRenewIntervalMs: (config.nodeLeaseDurationSeconds * 1000) / 4,
    statusUpdateFrequencyMs: durationMs(config.nodeStatusUpdateFrequency),
    statusReportFrequencyMs: durationMs(config.nodeStatusReportFrequency),
    maxPods: config.maxPods,
    thresholds: thresholdsOf(config),
    ...(reservedOf(config) ? { reserved: reservedOf(config) } : {}),
    ...(config.registerWithTaints ? { taints: config.registerWithTaints } : {}),
    ...(config.providerID ? { providerID: config.providerID } : {}),
  };
}

/** `orchard-nodeagent`: runs one agent until SIGTERM/SIGINT. Exit code 1 on a start-up error. */
export async function main(argv: string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        kubeconfig: { type: 'string' },
        'hostname-override': { type: 'string' },
        flavor: { type: 'string', default: 'orch' },
        config: { type: 'string' },
        'config-dir': { type: 'string' },
        'root-dir': { type: 'string', default: defaultRootDir },
        'lock-file': { type: 'string' },
        'node-labels': { type: 'string' },
        'fake-nodes': { type: 'string' },
        'fake-node-prefix': { type: 'string', default: 'fake-node-' },
        ...serverFlagOptions,
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    fail(`${(e as Error).message}\n\n${usage}`);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const kubeconfig = str('kubeconfig');
  if (!kubeconfig) fail(`--kubeconfig is required\n\n${usage}`);
  if (str('fake-nodes') !== undefined && str('hostname-override') !== undefined)
    fail(
      '--fake-nodes and --hostname-override exclude each other (fake nodes are named by --fake-node-prefix)',
    );
  let flavor: Flavor;
  let config: NodeAgentConfig;
  let release: (() => void) | undefined;
  let agent: NodeAgent;
  let server: AgentServer | undefined;
  let watchdog: Watchdog | undefined;
  try {
    flavor = flavorByName(str('flavor') ?? 'orch');
    const files = {
      ...(str('config') ? { config: str('config') } : {}),
      ...(str('config-dir') ? { configDir: str('config-dir') } : {}),
    };
    config = loadNodeAgentConfig(flavor, files);
    const lockFile = str('lock-file');
    const fakeCount = str('fake-nodes');
    // Simulated nodes read no machine, so they need no root directory.
    const layout = fakeCount === undefined ? ensureRootLayout(str('root-dir') ?? defaultRootDir) : undefined;
    if (lockFile) release = acquireLock(lockFile);
    watchdog = startWatchdog(process.env, {
      onError: (e) => console.error(`orchard-nodeagent: watchdog keep-alive failed: ${(e as Error).message}`),
    });
    const labels = { ...config.nodeLabels, ...parseNodeLabels(str('node-labels') ?? '') };
    const connection = resolveConnection(loadKubeconfig(kubeconfig));
    const onEvent = (node: string, e: HeartbeatEvent) => {
      if (e.loop === 'lease') watchdog?.heartbeat(e);
      if (e.type === 'retry')
        console.error(
          `orchard-nodeagent: ${node}: ${e.loop} heartbeat failed, retrying in ${e.delayMs} ms: ${e.error}`,
        );
    };
    if (fakeCount !== undefined) {
      const count = parseFakeNodeCount(fakeCount);
      const prefix = str('fake-node-prefix') ?? 'fake-node-';
      const fake = startFakeNodes({
        // One keep-alive agent for every node, at most 64 sockets.
        client: createRestClient({
          ...connection,
          userAgent: 'orchard-nodeagent/fake-nodes',
          maxSockets: 64,
        }),
        flavor,
        count,
        prefix,
        labels,
        ...agentSettingsFrom(config),
        onEvent,
      });
      agent = { registered: fake.registered, checkStatus: () => {}, stop: () => fake.stop() };
      fake.registered.then(() =>
        console.log(`orchard-nodeagent: ${count} fake nodes ${prefix}0…${prefix}${count - 1} registered`),
      );
    } else {
      const machine = hostMachine((layout as RootLayout).root);
      const nodeName = (str('hostname-override') ?? machine.info().hostname).toLowerCase();
      const client = createRestClient({ ...connection, userAgent: `orchard-nodeagent/${nodeName}` });
      server = await startAgentServerFromConfig(config, values, {
        client,
        flavor,
        nodeName,
        layout: layout as RootLayout,
        altNames: machine.info().addresses.map((a) => a.address),
      });
      console.log(`orchard-nodeagent: serving on ${server.url}`);
      agent = startNodeAgent({
        port: server.port,
        client,
        flavor,
        nodeName,
        machine,
        labels,
        ...agentSettingsFrom(config),
        onEvent: (e) => onEvent(nodeName, e),
      });
      agent.registered.then(() => console.log(`orchard-nodeagent: node ${nodeName} registered`));
    }
  } catch (e) {
    await server?.close();
    release?.();
    if (e instanceof NodeAgentConfigError || e instanceof LockHeldError || e instanceof WatchdogError)
      fail(e.message);
    fail((e as Error).message);
  }
  const shutdown = async () => {
    watchdog?.stop();
    await server?.close();
    await agent.stop();
    release?.();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

function fail(message: string): never {
  console.error(`orchard-nodeagent: ${message}`);
  process.exit(1);
}
