import { readFileSync } from 'node:fs';
import type { RestClient } from '@orchard/client';
import type { Flavor } from '@orchard/meta';
import { durationMs, type NodeAgentConfig } from '../config.js';
import type { RootLayout } from '../layout.js';
import { defaultContainerRuntimeEndpoint } from './cri.js';
import { type AgentServer, defaultAgentPort, startAgentServer } from './server.js';
import { loadOrCreateServingCert } from './serving-cert.js';

/** The `parseArgs` options of the agent's port (upstream kubelet's flag names). */
export const serverFlagOptions = {
  port: { type: 'string' },
  address: { type: 'string' },
  'tls-cert-file': { type: 'string' },
  'tls-private-key-file': { type: 'string' },
  'cert-dir': { type: 'string' },
  'client-ca-file': { type: 'string' },
  'container-runtime-endpoint': { type: 'string' },
  'feature-gates': { type: 'string' },
} as const;

/** The usage lines of `serverFlagOptions`. */
export const serverFlagUsage = `  --port N                   the agent's HTTPS port (default ${defaultAgentPort}; config port)
  --address IP               address to listen on (default 0.0.0.0; config address)
  --tls-cert-file FILE       serving certificate (config tlsCertFile); with --tls-private-key-file
  --tls-private-key-file FILE
                             without both, a self-signed pair is made in --cert-dir
  --cert-dir DIR             certificates and keys (default <root-dir>/pki)
  --client-ca-file FILE      client certificates signed by these CAs authenticate (config
                             authentication.x509.clientCAFile)
  --container-runtime-endpoint unix:///PATH
                             the CRI runtime socket (default ${defaultContainerRuntimeEndpoint})
  --feature-gates K=V,...    e.g. ContainerCheckpoint=false (merged over config featureGates)`;

/** Parses `--feature-gates A=true,B=false`. */
export function parseFeatureGates(text: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const m = /^\s*([A-Za-z0-9]+)=(true|false)\s*$/i.exec(part);
    if (!m) throw new Error(`--feature-gates: ${JSON.stringify(part)} is not Name=true|false`);
    Object.defineProperty(out, m[1] as string, {
      value: (m[2] as string).toLowerCase() === 'true',
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Parses `--port`: a whole number from 0 to 65535 (0 picks a free port). */
export function parsePort(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535)
    throw new Error(`--port: ${JSON.stringify(text)} is not a port number (0-65535)`);
  return Number(text);
}

/** A cache TTL of the configuration (a Go duration) as `{ [key]: ms }`, or nothing when unset. */
const ttl = (key: string, value: string | undefined) =>
  value === undefined ? {} : { [key]: durationMs(value) };

/** What `startAgentServerFromConfig` needs besides the configuration and flags. */
export interface AgentServerContext {
  readonly client: RestClient;
  readonly flavor: Flavor;
  readonly nodeName: string;
  readonly layout: RootLayout;
  /** The node's addresses: subject alternative names of a self-signed certificate. */
  readonly altNames?: readonly string[];
}

/**
 * Starts the agent's HTTPS port from the configuration with the flags of `serverFlagOptions` over it
 * (flags win, as upstream's kubelet merges them; `--feature-gates` keys merge over `featureGates`).
 */
export async function startAgentServerFromConfig(
  config: NodeAgentConfig,
  flags: Readonly<Record<string, string | boolean | undefined>>,
  ctx: AgentServerContext,
): Promise<AgentServer> {
  const flag = (k: keyof typeof serverFlagOptions) =>
    typeof flags[k] === 'string' ? (flags[k] as string) : undefined;
  const port =
    flag('port') !== undefined ? parsePort(flag('port') as string) : (config.port ?? defaultAgentPort);
  const certFile = flag('tls-cert-file') ?? config.tlsCertFile;
  const keyFile = flag('tls-private-key-file') ?? config.tlsPrivateKeyFile;
  const tls = await loadOrCreateServingCert({
    ...(certFile !== undefined ? { certFile } : {}),
    ...(keyFile !== undefined ? { keyFile } : {}),
    certDir: flag('cert-dir') ?? ctx.layout.pki,
    baseName: ctx.flavor.name === 'kubernetes' ? 'kubelet' : 'nodeagent',
    hostname: ctx.nodeName,
    ...(ctx.altNames ? { altNames: ctx.altNames } : {}),
  });
  const clientCaFile = flag('client-ca-file') ?? config.authentication?.x509?.clientCAFile;
  let clientCa: string | undefined;
  if (clientCaFile !== undefined && clientCaFile !== '') {
    try {
      clientCa = readFileSync(clientCaFile, 'utf8');
    } catch (e) {
      throw new Error(`${clientCaFile}: cannot read the client CA file: ${(e as Error).message}`);
    }
  }
  const featureGates = { ...config.featureGates, ...parseFeatureGates(flag('feature-gates') ?? '') };
  return startAgentServer({
    client: ctx.client,
    flavor: ctx.flavor,
    nodeName: ctx.nodeName,
    tls,
    ...(clientCa !== undefined ? { clientCa } : {}),
    address: flag('address') ?? config.address ?? '0.0.0.0',
    port,
    featureGates,
    checkpointsDir: ctx.layout.checkpoints,
    containerRuntimeEndpoint:
      flag('container-runtime-endpoint') ??
      config.containerRuntimeEndpoint ??
      defaultContainerRuntimeEndpoint,
    ...(config.runtimeRequestTimeout
      ? { runtimeRequestTimeoutMs: durationMs(config.runtimeRequestTimeout) }
      : {}),
    auth: {
      anonymous: config.authentication?.anonymous?.enabled ?? false,
      webhookAuthentication: config.authentication?.webhook?.enabled ?? true,
      authorizationMode: config.authorization?.mode ?? 'Webhook',
      cacheTtls: {
        ...ttl('tokenMs', config.authentication?.webhook?.cacheTTL),
        ...ttl('authorizedMs', config.authorization?.webhook?.cacheAuthorizedTTL),
        ...ttl('unauthorizedMs', config.authorization?.webhook?.cacheUnauthorizedTTL),
      },
    },
    onError: (e) => console.error(`orchard-nodeagent: request failed: ${(e as Error).message}`),
  });
}
