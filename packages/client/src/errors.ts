import type { Status } from '@orchard/meta';
import { hasBrand } from '@orchard/meta/internal';

/**
 * What the client rejects with.
 * - `Status`: the server answered with an error status (`status` = HTTP code, `body` = the Status when it sent one).
 * - `Transport`: the request did not complete (connection refused, TLS failure, reset).
 * - `InvalidConfig`: a kubeconfig that cannot be used.
 * - `Decode`: a response or watch event that is not valid JSON.
 */
export type ClientErrorCode = 'Status' | 'Transport' | 'InvalidConfig' | 'Decode';

/**
 * What the client rejects with: a code (`Status`, `Transport`, `InvalidConfig`, `Decode`), the HTTP
 * status and the server's Status.
 */
export class ClientError extends Error {
  readonly orchardClientError = true as const;
  readonly code: ClientErrorCode;
  /** HTTP status code (0 when there was no response). */
  readonly status: number;
  /** The Status body, when the server sent one. */
  readonly body: Status | undefined;
  /** `Retry-After` in seconds, when present. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ClientErrorCode,
    status: number,
    message: string,
    info: { body?: Status; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, info.cause === undefined ? undefined : { cause: info.cause });
    this.name = 'ClientError';
    this.code = code;
    this.status = status;
    this.body = info.body;
    this.retryAfterSeconds = info.retryAfterSeconds;
  }

  /** The Status reason (`Expired`, `NotFound` …) when the server sent one. */
  get reason(): string | undefined {
    return this.body?.reason;
  }
}

/** Whether `e` is a `ClientError` (of `code`, when given); works across copies of this package. */
export function isClientError(e: unknown, code?: ClientErrorCode): e is ClientError {
  return hasBrand(e, 'orchardClientError') && (code === undefined || (e as ClientError).code === code);
}

/** True for a 410 (Gone/Expired): the client must relist (spec doc 1 §4.6 item 3, §4.7). */
export function isGone(e: unknown): boolean {
  return isClientError(e, 'Status') && e.status === 410;
}
