import { StoreError } from '@orchard/store';
import { isBrokenCircuitError } from 'cockatiel';
import {
  ClientClosedError,
  EtcdAuthenticationFailedError,
  EtcdPermissionDeniedError,
  GRPCCancelledError,
  GRPCDeadlineExceededError,
  GRPCUnauthenticatedError,
  GRPCUnavailableError,
} from 'etcd3';

/** gRPC status codes that mean "no member answered" rather than "the request was wrong". */
const unavailableCodes = new Set([1, 4, 14]); // CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE

/** A call or stream this client cancelled (gRPC CANCELLED): says nothing about the member. */
export function isCancellation(e: unknown): boolean {
  return e instanceof GRPCCancelledError || (e as { code?: unknown } | null)?.code === 1;
}

/**
 * The StoreError an etcd client error means, or undefined for one the Store contract has no code
 * for (it then surfaces as an internal error with its message). Compacted/FutureRevision come back
 * without their revision; the store fills it in.
 */
export function toStoreError(e: unknown, key?: string): StoreError | undefined {
  const message = e instanceof Error ? e.message : String(e);
  if (message.includes('required revision has been compacted'))
    return new StoreError('Compacted', `etcd: ${message}`, key);
  if (message.includes('required revision is a future revision'))
    return new StoreError('FutureRevision', `etcd: ${message}`, key);
  if (
    e instanceof EtcdAuthenticationFailedError ||
    e instanceof EtcdPermissionDeniedError ||
    e instanceof GRPCUnauthenticatedError
  )
    return new StoreError('Unavailable', `etcd refused the credentials: ${message}`, key);
  const code = (e as { code?: unknown } | null)?.code;
  if (
    e instanceof GRPCUnavailableError ||
    e instanceof GRPCDeadlineExceededError ||
    e instanceof GRPCCancelledError ||
    e instanceof ClientClosedError ||
    isBrokenCircuitError(e) ||
    (typeof code === 'number' && unavailableCodes.has(code)) ||
    /etcdserver: (request timed out|leader changed|no leader|too many requests)|context deadline exceeded/.test(
      message,
    )
  )
    return new StoreError('Unavailable', `etcd unavailable: ${message}`, key);
  return undefined;
}
