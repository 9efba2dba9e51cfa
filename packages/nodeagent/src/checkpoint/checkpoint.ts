import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isClientError, type RestClient } from '@orchard/client';
import { formatRfc3339, isDns1123Label, isDns1123Subdomain } from '@orchard/meta';
import { getOwn, isJsonObject } from '@orchard/meta/internal';
import type { CriRuntimeClient } from './cri.js';

/** A response of the agent's port: status, content type and body. */
export interface AgentResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What the checkpoint handler needs. */
export interface CheckpointHandlerOptions {
  /** The agent's API client: the pod is read through it. */
  readonly client: RestClient;
  readonly nodeName: string;
  /** `<root>/checkpoints`: where archives are written (created 0700 when missing). */
  readonly checkpointsDir: string;
  readonly runtime: CriRuntimeClient;
  /** The clock of the archive's timestamp. Default `new Date()`. */
  readonly now?: () => Date;
  /** Timeout of the pod read. Default 10 s. */
  readonly requestTimeoutMs?: number;
}

type Obj = Record<string, unknown>;

/** A plain-text response, as go-restful's `WriteError` writes one. */
export function textResponse(status: number, body: string): AgentResponse {
  return { status, contentType: 'text/plain; charset=utf-8', body };
}

/** upstream's `kubecontainer.GetPodFullName`: `<pod>_<namespace>`. */
export function podFullName(namespace: string, pod: string): string {
  return `${pod}_${namespace}`;
}

/** The archive path upstream's kubelet asks the runtime for: `<dir>/checkpoint-<pod>_<ns>-<container>-<RFC 3339>.tar`. */
export function checkpointArchivePath(
  dir: string,
  namespace: string,
  pod: string,
  container: string,
  at: Date,
): string {
  return join(dir, `checkpoint-${podFullName(namespace, pod)}-${container}-${formatRfc3339(at)}.tar`);
}

/**
 * The last `timeout` query value parsed as Go's `strconv.ParseInt(s, 10, 64)` does: optional sign,
 * decimal digits, within int64. Undefined when absent; `'invalid'` when it does not parse.
 */
export function parseTimeoutParameter(query: URLSearchParams): bigint | 'invalid' | undefined {
  const all = query.getAll('timeout');
  if (all.length === 0) return undefined;
  const text = all[all.length - 1] as string;
  if (!/^[+-]?[0-9]{1,30}$/.test(text)) return 'invalid';
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) return 'invalid';
  return value;
}

const containerFields = ['containers', 'initContainers', 'ephemeralContainers'] as const;
const statusFields = ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'] as const;

const listOf = (o: unknown, field: string): Obj[] => {
  const v = isJsonObject(o) ? getOwn(o, field) : undefined;
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
};

/**
 * The runtime ID of a running container of the pod, from its status (`containerID` without the
 * `containerd://` style scheme), as upstream finds it among the runtime's running containers;
 * undefined when the container has no running instance.
 */
export function runningContainerId(pod: Obj, container: string): string | undefined {
  for (const field of statusFields)
    for (const s of listOf(pod.status, field)) {
      if (s.name !== container || typeof s.containerID !== 'string') continue;
      if (!isJsonObject(s.state) || !isJsonObject(s.state.running)) continue;
      const m = /^[a-z0-9.+-]+:\/\/(.+)$/i.exec(s.containerID);
      if (m) return m[1];
    }
  return undefined;
}

/** The pod bound to this node, or undefined (not found, not readable by the node, bound elsewhere). */
async function podOnNode(
  o: CheckpointHandlerOptions,
  namespace: string,
  name: string,
): Promise<Obj | undefined> {
  if (!isDns1123Label(namespace) || !isDns1123Subdomain(name)) return undefined;
  try {
    const pod = await o.client.json<Obj>({
      method: 'GET',
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`,
      signal: AbortSignal.timeout(o.requestTimeoutMs ?? 10_000),
    });
    const nodeName = isJsonObject(pod.spec) ? pod.spec.nodeName : undefined;
    return nodeName === o.nodeName ? pod : undefined;
  } catch (e) {
    // The Node authorizer answers 403 for a pod bound to another node: not one of ours.
    if (isClientError(e, 'Status') && (e.status === 404 || e.status === 403)) return undefined;
    throw e;
  }
}

/**
 * `POST /checkpoint/<namespace>/<pod>/<container>?timeout=<seconds>` (spec doc 2 §4.3), with
 * upstream kubelet's answers: 404 `pod does not exist` (also for a pod of another node), 404
 * `container <name> does not exist` (not in the pod's containers, init or ephemeral containers), 404
 * `cannot parse value of timeout parameter`, 500 `checkpointing of <ns>/<pod>/<container> failed
 * (<cause>)` for a container without a running instance, a runtime error, a deadline or a runtime
 * without the call, and 200 `{"items":["<archive path>"]}`. The archive is made 0600.
 */
export async function handleCheckpoint(
  namespace: string,
  podName: string,
  container: string,
  query: URLSearchParams,
  o: CheckpointHandlerOptions,
): Promise<AgentResponse> {
  let pod: Obj | undefined;
  try {
    pod = await podOnNode(o, namespace, podName);
  } catch (e) {
    return textResponse(500, `cannot read pod ${namespace}/${podName}: ${(e as Error).message}`);
  }
  if (!pod) return textResponse(404, 'pod does not exist');
  const inSpec = containerFields.some((f) => listOf(pod.spec, f).some((c) => c.name === container));
  if (!inSpec) return textResponse(404, `container ${container} does not exist`);
  const timeout = parseTimeoutParameter(query);
  if (timeout === 'invalid') return textResponse(404, 'cannot parse value of timeout parameter');
  const failed = (cause: string) =>
    textResponse(500, `checkpointing of ${namespace}/${podName}/${container} failed (${cause})`);
  const containerId = runningContainerId(pod, container);
  if (containerId === undefined) return failed(`container ${container} not found`);
  const location = checkpointArchivePath(
    o.checkpointsDir,
    namespace,
    podName,
    container,
    (o.now ?? (() => new Date()))(),
  );
  try {
    mkdirSync(o.checkpointsDir, { recursive: true, mode: 0o700 });
    await o.runtime.checkpointContainer({ container_id: containerId, location, timeout: timeout ?? 0n });
  } catch (e) {
    return failed((e as Error).message);
  }
  try {
    // The archive holds every memory page of the container: readable by root only (spec §4.3).
    chmodSync(location, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return failed((e as Error).message);
  }
  return { status: 200, contentType: 'application/json', body: JSON.stringify({ items: [location] }) };
}
