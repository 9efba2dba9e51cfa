import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** The CRI `RuntimeService` endpoint upstream's kubelet uses when none is configured. */
export const defaultContainerRuntimeEndpoint = 'unix:///run/containerd/containerd.sock';

/** upstream's `runtimeRequestTimeout` default (2 min): the deadline of a CRI call without a longer `timeout`. */
export const defaultRuntimeRequestTimeoutMs = 120_000;

/** The longest deadline set on a call (about 24.8 days, the largest timer Node runs). */
const maxDeadlineMs = 2 ** 31 - 1;

/** `CheckpointContainerRequest` of CRI `runtime.v1` (field names as on the wire). */
export interface CheckpointContainerRequest {
  /** ID of the container (without the `containerd://` style scheme). */
  readonly container_id: string;
  /** Path of the archive the runtime writes. */
  readonly location: string;
  /** Seconds; zero means the CRI default. int64 on the wire, kept as a bigint here. */
  readonly timeout: bigint;
}

/** A failed CRI call; the message reads as Go's gRPC errors do (`rpc error: code = … desc = …`). */
export class CriError extends Error {
  /** The gRPC status code. */
  readonly code: number;
  constructor(code: number, details: string) {
    super(`rpc error: code = ${codeName(code)} desc = ${details}`);
    this.name = 'CriError';
    this.code = code;
  }
}

/** Go's name of a gRPC status code (`DEADLINE_EXCEEDED` → `DeadlineExceeded`). */
export function codeName(code: number): string {
  const name = grpc.status[code];
  if (name === undefined) return `Code(${code})`;
  if (name === 'OK') return 'OK';
  return name
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/**
 * The gRPC target of `containerRuntimeEndpoint`: `unix:///path` as given, a bare absolute path as a
 * unix socket. Other schemes (tcp, npipe) are refused, as upstream's kubelet refuses them on Linux.
 */
export function criTarget(endpoint: string): string {
  if (endpoint.startsWith('unix://')) {
    const path = endpoint.slice('unix://'.length);
    if (!path.startsWith('/')) throw new Error(`${endpoint}: the unix socket path must be absolute`);
    return `unix://${path}`;
  }
  if (endpoint.startsWith('/')) return `unix://${endpoint}`;
  throw new Error(`${endpoint}: only unix:// container runtime endpoints are supported`);
}

/** The path of `proto/cri-checkpoint.proto`, from the source tree (src/checkpoint) or a build (dist). */
export function criProtoPath(): string {
  for (const rel of ['../../proto/cri-checkpoint.proto', '../proto/cri-checkpoint.proto']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('proto/cri-checkpoint.proto is missing from the @orchard/nodeagent package');
}

interface RuntimeServicePackage {
  readonly client: grpc.ServiceClientConstructor;
  readonly definition: grpc.ServiceDefinition;
}

let loaded: RuntimeServicePackage | undefined;

/** The `runtime.v1.RuntimeService` of the package's .proto (loaded once, on first use). */
export function runtimeService(): RuntimeServicePackage {
  if (!loaded) {
    const def = protoLoader.loadSync(criProtoPath(), { keepCase: true, longs: String, defaults: true });
    const pkg = grpc.loadPackageDefinition(def) as unknown as {
      runtime: { v1: { RuntimeService: grpc.ServiceClientConstructor } };
    };
    const client = pkg.runtime.v1.RuntimeService;
    loaded = { client, definition: client.service };
  }
  return loaded;
}

/** A connection to a container runtime's CRI `RuntimeService` (only `CheckpointContainer`). */
export interface CriRuntimeClient {
  /**
   * Calls `CheckpointContainer`. The deadline follows upstream's remote runtime: the request's
   * `timeout` when it is longer than `runtimeRequestTimeout`, else `runtimeRequestTimeout` (and the
   * request then carries that many seconds); a negative timeout is refused before any call.
   * Rejects with `CriError` (or a plain Error for the refused timeout).
   */
  checkpointContainer(request: CheckpointContainerRequest): Promise<void>;
  /** Closes the channel. */
  close(): void;
}

/** Options of `connectCriRuntime`. */
export interface CriRuntimeClientOptions {
  /** `runtimeRequestTimeout` in ms. Default 2 min. */
  readonly runtimeRequestTimeoutMs?: number;
}

/** A client of the CRI runtime at `endpoint` (`containerRuntimeEndpoint`); connects lazily. */
export function connectCriRuntime(endpoint: string, options: CriRuntimeClientOptions = {}): CriRuntimeClient {
  const defaultMs = options.runtimeRequestTimeoutMs ?? defaultRuntimeRequestTimeoutMs;
  const Client = runtimeService().client;
  const client = new Client(criTarget(endpoint), grpc.credentials.createInsecure());
  return {
    checkpointContainer(request) {
      if (request.timeout < 0n)
        return Promise.reject(new Error('CheckpointContainer requires the timeout value to be > 0'));
      const defaultSeconds = BigInt(Math.floor(defaultMs / 1000));
      let timeout = request.timeout;
      let deadlineMs = defaultMs;
      if (timeout > defaultSeconds) {
        const ms = timeout * 1000n;
        deadlineMs = ms > BigInt(maxDeadlineMs) ? maxDeadlineMs : Number(ms);
      } else timeout = defaultSeconds;
      const message = {
        container_id: request.container_id,
        location: request.location,
        timeout: `${timeout}`,
      };
      return new Promise<void>((resolve, reject) => {
        const call = client.CheckpointContainer as (
          req: unknown,
          opts: grpc.CallOptions,
          cb: (err: grpc.ServiceError | null) => void,
        ) => void;
        call.call(client, message, { deadline: new Date(Date.now() + deadlineMs) }, (err) => {
          if (err) reject(new CriError(err.code, err.details || err.message));
          else resolve();
        });
      });
    },
    close() {
      client.close();
    },
  };
}
