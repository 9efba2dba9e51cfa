import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Flavor } from '@orchard/meta';
import {
  configSchemaCauses,
  exceedsDepth,
  formatFieldCause,
  getOwn,
  isJsonObject,
  parseGoDuration,
  setOwn,
} from '@orchard/meta/internal';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseThreshold, thresholdSignals } from './conditions.js';

/** The configuration document's apiVersion and kind in the flavor (upstream's KubeletConfiguration). */
export function configTypeOf(flavor: Flavor): { apiVersion: string; kind: string } {
  return flavor.name === 'kubernetes'
    ? { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration' }
    : { apiVersion: `nodeagent.config.${flavor.domain}/v1beta1`, kind: 'NodeAgentConfiguration' };
}

const duration = z.string().refine(
  (s) => {
    try {
      return parseGoDuration(s) >= 0n;
    } catch {
      return false;
    }
  },
  { message: 'must be a duration such as "10s" or "5m0s"' },
);
const quantityMap = z.record(z.string(), z.string());
const evictionMap = z.record(z.string(), z.string()).superRefine((m, ctx) => {
  for (const [k, v] of Object.entries(m)) {
    if (!(thresholdSignals as readonly string[]).includes(k))
      ctx.addIssue({
        code: 'custom',
        path: [k],
        message: `unknown eviction signal (known: ${thresholdSignals.join(', ')})`,
      });
    else
      try {
        parseThreshold(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', path: [k], message: (e as Error).message });
      }
  }
});

/** Every field a configuration file (or drop-in) may set; all optional, unknown fields refused. */
function fileSchema(flavor: Flavor) {
  const { apiVersion, kind } = configTypeOf(flavor);
  return z.strictObject({
    apiVersion: z.literal(apiVersion),
    kind: z.literal(kind),
    nodeStatusUpdateFrequency: duration.optional(),
    nodeStatusReportFrequency: duration.optional(),
    nodeLeaseDurationSeconds: z.number().int().min(1).max(3600).optional(),
    staticPodPath: z.string().optional(),
    containerRuntimeEndpoint: z.string().optional(),
    imageServiceEndpoint: z.string().optional(),
    maxPods: z.number().int().min(1).max(1_000_000).optional(),
    providerID: z.string().optional(),
    address: z.string().optional(),
    port: z.number().int().min(0).max(65535).optional(),
    clusterDomain: z.string().optional(),
    clusterDNS: z.array(z.string()).optional(),
    featureGates: z.record(z.string(), z.boolean()).optional(),
    evictionHard: evictionMap.optional(),
    systemReserved: quantityMap.optional(),
    kubeReserved: quantityMap.optional(),
    nodeLabels: z.record(z.string(), z.string()).optional(),
    /** A map whose values are lists: a drop-in replaces a key's whole list. */
    allowedUnsafeSysctlsByPod: z.record(z.string(), z.array(z.string())).optional(),
    registerNode: z.boolean().optional(),
    registerWithTaints: z
      .array(
        z.strictObject({
          key: z.string().min(1),
          value: z.string().optional(),
          effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
        }),
      )
      .optional(),
    authentication: z
      .strictObject({
        anonymous: z.strictObject({ enabled: z.boolean().optional() }).optional(),
        webhook: z
          .strictObject({ enabled: z.boolean().optional(), cacheTTL: duration.optional() })
          .optional(),
        x509: z.strictObject({ clientCAFile: z.string().optional() }).optional(),
      })
      .optional(),
    shutdownWatchdog: z.strictObject({ enabled: z.boolean().optional() }).optional(),
    // The agent's HTTPS port (the checkpoint endpoint): serving pair, runtime deadline, authorization.
    tlsCertFile: z.string().optional(),
    tlsPrivateKeyFile: z.string().optional(),
    runtimeRequestTimeout: duration.optional(),
    authorization: z
      .strictObject({
        mode: z.enum(['AlwaysAllow', 'Webhook']).optional(),
        webhook: z
          .strictObject({
            cacheAuthorizedTTL: duration.optional(),
            cacheUnauthorizedTTL: duration.optional(),
          })
          .optional(),
      })
      .optional(),
  });
}

/** A configuration as the files give it (every field optional). */
export type NodeAgentConfigFile = z.infer<ReturnType<typeof fileSchema>>;

/** The configuration with defaults applied. */
export interface NodeAgentConfig extends NodeAgentConfigFile {
  readonly nodeStatusUpdateFrequency: string;
  readonly nodeStatusReportFrequency: string;
  readonly nodeLeaseDurationSeconds: number;
  readonly staticPodPath: string;
  readonly maxPods: number;
  readonly port: number;
  readonly registerNode: boolean;
}

/** A configuration file that cannot be used; the message names the file and the field. */
export class NodeAgentConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeAgentConfigError';
  }
}

/** Largest configuration file read (1 MiB). */
export const maxConfigFileBytes = 1024 * 1024;

/**
 * Merges a drop-in over a configuration (spec doc 2 §2.9): scalars and embedded structs override
 * field by field, lists are replaced whole, maps merge key by key, and a map key whose value is a
 * list is replaced whole. Neither input is changed.
 */
export function mergeConfig(base: unknown, dropIn: unknown): unknown {
  if (!isJsonObject(base) || !isJsonObject(dropIn)) return structuredClone(dropIn);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(base)) setOwn(out, k, structuredClone(getOwn(base, k)));
  for (const k of Object.keys(dropIn)) {
    const current = getOwn(out, k);
    setOwn(
      out,
      k,
      current === undefined ? structuredClone(getOwn(dropIn, k)) : mergeConfig(current, getOwn(dropIn, k)),
    );
  }
  return out;
}

/** Reads and validates one file: YAML or JSON, at most 1 MiB, strict fields. */
export function readConfigFile(path: string, flavor: Flavor): NodeAgentConfigFile {
  let text: string;
  try {
    if (statSync(path).size > maxConfigFileBytes)
      throw new NodeAgentConfigError(`${path}: larger than ${maxConfigFileBytes} bytes`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof NodeAgentConfigError) throw e;
    throw new NodeAgentConfigError(`${path}: cannot read: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new NodeAgentConfigError(`${path}: not YAML or JSON: ${(e as Error).message}`);
  }
  if (exceedsDepth(doc, 64)) throw new NodeAgentConfigError(`${path}: nested deeper than 64 levels`);
  const { kind } = configTypeOf(flavor);
  const parsed = fileSchema(flavor).safeParse(doc, { reportInput: true });
  if (!parsed.success) {
    const causes = configSchemaCauses(parsed.error, kind).map(formatFieldCause);
    throw new NodeAgentConfigError(`${path}: ${causes.join('; ')}`);
  }
  return parsed.data;
}

/** The `.conf` files of a drop-in directory in lexical order (upstream's rule). */
export function dropInFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new NodeAgentConfigError(`${dir}: cannot read the drop-in directory: ${(e as Error).message}`);
  }
  return names
    .filter((n) => n.endsWith('.conf'))
    .sort()
    .map((n) => join(dir, n));
}

/** Defaults of the fields `NodeAgentConfig` always has (upstream's; `staticPodPath` is `/etc/<orch|kubernetes>/manifests`). */
export const configDefaults = Object.freeze({
  nodeStatusUpdateFrequency: '10s',
  nodeStatusReportFrequency: '5m0s',
  nodeLeaseDurationSeconds: 40,
  maxPods: 110,
  port: 10250,
  registerNode: true,
});

/**
 * The configuration of `--config` with the drop-ins of `--config-dir` merged over it in order, then
 * the defaults. Each file is validated on its own, so an error names the file and the field.
 */
export function loadNodeAgentConfig(
  flavor: Flavor,
  files: { config?: string; configDir?: string },
): NodeAgentConfig {
  const { apiVersion, kind } = configTypeOf(flavor);
  let merged: unknown = { apiVersion, kind };
  const paths = [
    ...(files.config ? [files.config] : []),
    ...(files.configDir ? dropInFiles(files.configDir) : []),
  ];
  for (const p of paths) merged = mergeConfig(merged, readConfigFile(p, flavor));
  const staticPodPath = flavor.name === 'kubernetes' ? '/etc/kubernetes/manifests' : '/etc/orch/manifests';
  return { ...configDefaults, staticPodPath, ...(merged as NodeAgentConfigFile) } as NodeAgentConfig;
}

/** A Go duration of the configuration in milliseconds. */
export function durationMs(value: string): number {
  return Number(parseGoDuration(value) / 1_000_000n);
}
