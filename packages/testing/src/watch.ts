/**
 * One watch collector for tests: opens a watch through `@orchard/client` (HTTP or HTTPS as the
 * admin), collects its events as they arrive, and waits — bounded — for a count or a matching
 * event.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { decodeWatchEvents, type RestClient } from '@orchard/client';
import type { TestServer } from './test-server.js';
import { waitFor } from './wait-for.js';

/** A watch event as the tests read it (objects are plain JSON; ERROR events carry a Status). */
export interface CollectedEvent {
  type: string;
  object: {
    apiVersion?: string;
    kind?: string;
    metadata: {
      name?: string;
      namespace?: string;
      resourceVersion?: string;
      annotations?: Record<string, string>;
      labels?: Record<string, string>;
      finalizers?: string[];
      deletionTimestamp?: string;
      ownerReferences?: unknown[];
    };
    code?: number;
    reason?: string;
    message?: string;
    [field: string]: unknown;
  };
}

/**
 * An open watch whose events are collected as they arrive: status, headers, events, `ended` and
 * `close()`.
 */
export interface WatchCollector {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every event so far, in arrival order. */
  readonly events: CollectedEvent[];
  /** Resolves when the stream ends (the server ended it, it broke, or `close()`). */
  readonly ended: Promise<void>;
  /** True once the server ended the stream cleanly (not broken, not closed by us). */
  readonly complete: boolean;
  /** Waits until `n` events arrived and resolves to the first `n`; fails after `timeoutMs`. */
  until(n: number, timeoutMs?: number): Promise<CollectedEvent[]>;
  /** Waits until an event satisfies `match` and resolves to it; fails after `timeoutMs`. */
  untilEvent(match: (e: CollectedEvent) => boolean, timeoutMs?: number): Promise<CollectedEvent>;
  close(): void;
}

/**
 * Opens a watch on `path` (its own query and `query` merged, `watch=1` added) as the admin of
 * `target` (a test server or a REST client). Rejects with the client's `ClientError` when the
 * server answers an error status before the stream.
 */
export async function openWatch(
  target: TestServer | RestClient,
  path: string,
  query: Record<string, string> = {},
): Promise<WatchCollector> {
  const client = 'client' in target ? target.client : target;
  const url = new URL(path, 'http://watch.invalid');
  const merged: Record<string, string> = { watch: '1' };
  for (const [k, v] of url.searchParams) merged[k] = v;
  Object.assign(merged, query);
  const abort = new AbortController();
  const res = await client.stream({ path: url.pathname, query: merged, signal: abort.signal });
  const events: CollectedEvent[] = [];
  let complete = false;
  const ended = (async () => {
    try {
      for await (const ev of decodeWatchEvents(res.body)) events.push(ev as unknown as CollectedEvent);
      complete = !abort.signal.aborted;
    } catch {
      // broken or closed
    }
  })();
  const label = () => `${path} (have ${JSON.stringify(events.map((e) => e.type))})`;
  return {
    status: res.status,
    headers: res.headers,
    events,
    ended,
    get complete() {
      return complete;
    },
    until: (n, timeoutMs = 5_000) =>
      waitFor(
        `${n} watch events on ${label()}`,
        () => (events.length >= n ? events.slice(0, n) : undefined),
        timeoutMs,
      ),
    untilEvent: (match, timeoutMs = 5_000) =>
      waitFor(`a matching watch event on ${label()}`, () => events.find(match), timeoutMs),
    close: () => abort.abort(),
  };
}
