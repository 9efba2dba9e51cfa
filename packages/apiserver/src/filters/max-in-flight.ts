import { ApiError, type UserInfo } from '@orchard/meta';

/**
 * Upstream's max-in-flight filter (`--max-requests-inflight`, `--max-mutating-requests-inflight`):
 * two counters of requests being served; one that would exceed its limit is answered 429 at once
 * with `Retry-After: 1` instead of queueing, so an overloaded server sheds load rather than
 * running out of memory. Long-running requests (watches) are not counted, and `system:masters`
 * always gets an answer (upstream: "a super-admin or a loopback connection").
 */
export interface MaxInFlight {
  /** Takes a slot for the request, or throws the 429; the returned function gives it back. */
  enter(mutating: boolean, user: UserInfo | undefined): () => void;
}

const released = () => {};

export function createMaxInFlight(maxReadonly: number, maxMutating: number): MaxInFlight {
  let readonly = 0;
  let mutating = 0;
  return {
    enter(isMutating, user) {
      if (user?.groups.includes('system:masters')) return released;
      const limit = isMutating ? maxMutating : maxReadonly;
      if (limit <= 0) return released;
      const current = isMutating ? mutating : readonly;
      if (current >= limit) throw tooManyRequests();
      if (isMutating) mutating++;
      else readonly++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        if (isMutating) mutating--;
        else readonly--;
      };
    },
  };
}

/** Upstream's 429 for a request over a concurrency limit. */
export function tooManyRequests(message = 'Too many requests, please try again later.'): ApiError {
  return new ApiError(429, 'TooManyRequests', message, { retryAfterSeconds: 1 }, { 'Retry-After': '1' });
}
