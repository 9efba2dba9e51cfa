import { writeFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { runtimeService } from './cri.js';
import { tarArchive } from './tar.js';

/** How the fake runtime answers `CheckpointContainer`. */
export type FakeRuntimeMode =
  /** Writes a tar archive at `location` and answers OK. */
  | 'ok'
  /** Answers `Internal` with `failMessage`. */
  | 'fail'
  /** Never answers (the caller's deadline ends the call). */
  | 'hang'
  /** Serves no `RuntimeService` at all: gRPC answers `Unimplemented` (a runtime without the call). */
  | 'unimplemented';

/** One `CheckpointContainer` call the fake runtime received. */
export interface FakeRuntimeCall {
  readonly containerId: string;
  readonly location: string;
  /** `timeout` as sent (int64 as a decimal string). */
  readonly timeout: string;
}

/** A running fake CRI runtime. */
export interface FakeCriRuntime {
  /** `unix://<socket>`: the `containerRuntimeEndpoint` to give the agent. */
  readonly endpoint: string;
  /** Every call received, in order. */
  readonly calls: FakeRuntimeCall[];
  /** Changes how later calls are answered. */
  setMode(mode: Exclude<FakeRuntimeMode, 'unimplemented'>, failMessage?: string): void;
  stop(): Promise<void>;
}

/** Options of `startFakeCriRuntime`. */
export interface FakeCriRuntimeOptions {
  /** Absolute path of the unix socket to listen on. */
  readonly socketPath: string;
  /** Container IDs the runtime knows; others are answered `NotFound`. */
  readonly containerIds: readonly string[];
  /** Default `ok`. */
  readonly mode?: FakeRuntimeMode;
}

/**
 * A small CRI runtime for tests: a gRPC server on a unix socket implementing only
 * `runtime.v1.RuntimeService/CheckpointContainer`. In `ok` mode it writes a real ustar archive at the
 * requested location (mode 0644, so a test sees the agent restrict it to 0600) holding what a CRIU
 * checkpoint holds by name (`config.dump`, `spec.dump`, `checkpoint/pages-1.img`).
 */
export async function startFakeCriRuntime(o: FakeCriRuntimeOptions): Promise<FakeCriRuntime> {
  let mode: FakeRuntimeMode = o.mode ?? 'ok';
  let failMessage = 'checkpoint/restore support not available';
  const calls: FakeRuntimeCall[] = [];
  const known = new Set(o.containerIds);
  const server = new grpc.Server();
  if (mode !== 'unimplemented')
    server.addService(runtimeService().definition, {
      CheckpointContainer(
        call: grpc.ServerUnaryCall<Record<string, string>, unknown>,
        callback: grpc.sendUnaryData<unknown>,
      ) {
        const req = call.request;
        const containerId = req.container_id ?? '';
        const location = req.location ?? '';
        calls.push({ containerId, location, timeout: String(req.timeout ?? '0') });
        if (mode === 'hang') return;
        if (mode === 'fail') return callback({ code: grpc.status.INTERNAL, details: failMessage });
        if (!known.has(containerId))
          return callback({
            code: grpc.status.NOT_FOUND,
            details: `could not find container ${JSON.stringify(containerId)}`,
          });
        try {
          const archive = tarArchive([
            { name: 'config.dump', data: JSON.stringify({ id: containerId }) },
            { name: 'spec.dump', data: JSON.stringify({ ociVersion: '1.0.2' }) },
            { name: 'checkpoint/pages-1.img', data: Buffer.alloc(4096, 0x5a) },
          ]);
          writeFileSync(location, archive, { mode: 0o644 });
        } catch (e) {
          return callback({ code: grpc.status.INTERNAL, details: (e as Error).message });
        }
        callback(null, {});
      },
    });
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${o.socketPath}`, grpc.ServerCredentials.createInsecure(), (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  return {
    endpoint: `unix://${o.socketPath}`,
    calls,
    setMode(next, message) {
      mode = next;
      if (message !== undefined) failMessage = message;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
