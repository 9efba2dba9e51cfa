/** Options of `createEtcdStore()`; defaults in `defaultEtcdStoreOptions`. */
export interface EtcdStoreOptions {
  /** Client URLs of the etcd members (`--etcd-servers`), e.g. `http://127.0.0.1:2379`. Required. */
  endpoints: readonly string[];
  /** Every key lives under this prefix (`--etcd-prefix`). Default `/registry`, as upstream. */
  prefix: string;
  /** TLS material (PEM) for `https://` endpoints: the CA that signed etcd's certificate, and a client certificate. */
  tls?: { ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer };
  /** etcd user and password (etcd's own auth). Default none. */
  auth?: { username: string; password: string };
  /**
   * Deadline of each unary call (reads, writes, compaction). Default 10_000 ms: a lost etcd turns
   * into an `Unavailable` error rather than a request that hangs.
   */
  requestTimeoutMs: number;
  /** How long a failing member is skipped before it is tried again. Default 1_000 ms. */
  memberRetryAfterMs: number;
  /**
   * How old the remembered compaction point may be before `compactedRevision()` asks etcd again
   * (another server may have compacted). Default 2_000 ms.
   */
  compactedRevisionTtlMs: number;
  /** Delay before a broken watch stream reconnects (it resumes after its last revision). Default 250 ms. */
  watchRetryMs: number;
}

/**
 * The defaults of every `EtcdStoreOptions` field except `endpoints` (which has none): keys under `/registry`,
 * 10 s per request, a failed member retried after 1 s, the compaction point re-read after 2 s, broken watches
 * reconnected after 250 ms. Frozen; override fields through the store's options rather than mutating it.
 */
export const defaultEtcdStoreOptions: Readonly<Omit<EtcdStoreOptions, 'endpoints'>> = Object.freeze({
  prefix: '/registry',
  requestTimeoutMs: 10_000,
  memberRetryAfterMs: 1_000,
  compactedRevisionTtlMs: 2_000,
  watchRetryMs: 250,
});
