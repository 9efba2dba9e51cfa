import { parseArgs } from 'node:util';
import { createRestClient, loadKubeconfig, resolveConnection } from '@orchard/client';
import { type Flavor, flavorByName } from '@orchard/meta';
import { type NodeAgent, startNodeAgent } from './agent.js';
import { defaultPressureThresholds, type PressureThresholds, parseThreshold } from './conditions.js';
import { durationMs, loadNodeAgentConfig, type NodeAgentConfig, NodeAgentConfigError } from './config.js';
import { acquireLock, defaultRootDir, ensureRootLayout, LockHeldError } from './layout.js';
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
  let flavor: Flavor;
  let config: NodeAgentConfig;
  let release: (() => void) | undefined;
  let agent: NodeAgent;
  let watchdog: Watchdog | undefined;
  try {
    flavor = flavorByName(str('flavor') ?? 'orch');
    const files = {
      ...(str('config') ? { config: str('config') } : {}),
      ...(str('config-dir') ? { configDir: str('config-dir') } : {}),
    };
    config = loadNodeAgentConfig(flavor, files);
    const layout = ensureRootLayout(str('root-dir') ?? defaultRootDir);
    const lockFile = str('lock-file');
    if (lockFile) release = acquireLock(lockFile);
    const machine = hostMachine(layout.root);
    const nodeName = (str('hostname-override') ?? machine.info().hostname).toLowerCase();
    const client = createRestClient({
      ...resolveConnection(loadKubeconfig(kubeconfig)),
      userAgent: `orchard-nodeagent/${nodeName}`,
    });
    watchdog = startWatchdog(process.env, {
      onError: (e) => console.error(`orchard-nodeagent: watchdog keep-alive failed: ${(e as Error).message}`),
    });
    const labels = { ...config.nodeLabels, ...parseNodeLabels(str('node-labels') ?? '') };
    agent = startNodeAgent({
      client,
      flavor,
      nodeName,
      machine,
      labels,
      ...agentSettingsFrom(config),
      onEvent: (e) => {
        if (e.loop === 'lease') watchdog?.heartbeat(e);
        if (e.type === 'retry')
          console.error(
            `orchard-nodeagent: ${e.loop} heartbeat failed, retrying in ${e.delayMs} ms: ${e.error}`,
          );
      },
    });
    agent.registered.then(() => console.log(`orchard-nodeagent: node ${nodeName} registered`));
  } catch (e) {
    release?.();
    if (e instanceof NodeAgentConfigError || e instanceof LockHeldError || e instanceof WatchdogError)
      fail(e.message);
    fail((e as Error).message);
  }
  const shutdown = async () => {
    watchdog?.stop();
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
