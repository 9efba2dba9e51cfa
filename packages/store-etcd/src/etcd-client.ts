import { ConsecutiveBreaker, circuitBreaker, handleWhen, noop } from 'cockatiel';
import { Etcd3, type IOptions } from 'etcd3';
import { isCancellation, toStoreError } from './etcd-errors.js';
import type { EtcdStoreOptions } from './etcd-store-options.js';

/** 64 MiB: far above the 1.5 MiB object limit, so a watch batch or a list page is never refused by size. */
const maxMessageBytes = 64 * 1024 * 1024;

function toPem(v: string | Buffer | undefined): Buffer | undefined {
  return v === undefined ? undefined : Buffer.isBuffer(v) ? v : Buffer.from(v);
}

function hostOf(url: string): string {
  // etcd3 takes URLs; a bare host:port is http.
  return /^[a-z]+:\/\//i.test(url) ? url : `http://${url}`;
}

/**
 * The etcd3 client the store talks through: TLS and user/password from the options, a deadline on
 * every unary call (watch streams live as long as their watch), gRPC keepalive and reconnect backoff,
 * and a circuit breaker per member that sets a member aside after three calls in a row found it lost.
 * The client itself never retries a call.
 */
export function createEtcdClient(o: EtcdStoreOptions): Etcd3 {
  const tls = o.tls;
  const clientOptions: IOptions = {
    hosts: o.endpoints.map(hostOf),
    ...(tls?.ca !== undefined
      ? {
          credentials: {
            rootCertificate: toPem(tls.ca)!,
            ...(tls.key !== undefined ? { privateKey: toPem(tls.key)! } : {}),
            ...(tls.cert !== undefined ? { certChain: toPem(tls.cert)! } : {}),
          },
        }
      : {}),
    ...(o.auth ? { auth: { username: o.auth.username, password: o.auth.password } } : {}),
    grpcOptions: {
      'grpc.max_receive_message_length': maxMessageBytes,
      'grpc.max_send_message_length': maxMessageBytes,
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 2_000,
    },
    // Unary calls get a deadline; watch streams live as long as their watch.
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + o.requestTimeoutMs }),
    dialTimeout: o.requestTimeoutMs,
    faultHandling: {
      global: noop,
      host: () =>
        // Only lost members count towards skipping one, never a refused request (compacted,
        // conflict) nor a call or watch stream this client cancelled itself (a stopping server
        // cancels dozens of watches at once, which would otherwise set its only member aside).
        circuitBreaker(
          handleWhen((e) => !isCancellation(e) && toStoreError(e)?.code === 'Unavailable'),
          {
            halfOpenAfter: o.memberRetryAfterMs,
            breaker: new ConsecutiveBreaker(3),
          },
        ),
    },
  };
  return new Etcd3(clientOptions);
}
