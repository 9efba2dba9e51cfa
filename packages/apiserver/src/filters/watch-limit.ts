import type { UserInfo } from '@orchard/meta';
import { tooManyRequests } from './max-in-flight.js';

/**
 * A cap on the watches one user holds open at once: each watch holds a socket, a cache watcher and
 * buffers for as long as it lives, so without a cap one client could hold the server's memory.
 * Beyond it: 429 with `Retry-After`.
 */
export interface WatchLimit {
  /** Counts a watch of `user`, or throws the 429; the returned function ends it. */
  open(user: UserInfo | undefined): () => void;
}

export function createWatchLimit(maxPerUser: number): WatchLimit {
  const open = new Map<string, number>();
  return {
    open(user) {
      if (maxPerUser <= 0) return () => {};
      const name = user?.username ?? 'system:anonymous';
      const n = open.get(name) ?? 0;
      if (n >= maxPerUser)
        throw tooManyRequests(
          `too many open watches for user ${JSON.stringify(name)}: at most ${maxPerUser}`,
        );
      open.set(name, n + 1);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (open.get(name) ?? 1) - 1;
        if (left === 0) open.delete(name);
        else open.set(name, left);
      };
    },
  };
}
