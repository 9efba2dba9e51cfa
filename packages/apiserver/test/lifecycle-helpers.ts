import { type TestResponse, type TestServer, waitFor } from '@orchard/testing';
import { defineResource } from '../src/registry/resource.js';

/** A namespaced type added straight to the registry (as an embedding server would), besides CRDs. */
export const gadgets = defineResource({
  group: 'toys.example.org',
  versions: ['v1'],
  resource: 'gadgets',
  kind: 'Gadget',
  namespaced: true,
});

/** Shared with the other suites from `@orchard/testing`. */
export { waitFor };

export interface WatchEvent {
  type: string;
  object: {
    kind?: string;
    metadata: {
      name: string;
      resourceVersion?: string;
      deletionTimestamp?: string;
      finalizers?: string[];
      labels?: Record<string, string>;
      ownerReferences?: unknown[];
    };
    status?: Record<string, unknown>;
  };
}

/** A watch over plain HTTP collecting events; `close()` ends it. */
export interface Watch {
  readonly events: WatchEvent[];
  /** Waits until `n` events arrived (or fails after the timeout). */
  next(n: number, timeoutMs?: number): Promise<WatchEvent[]>;
  close(): void;
}

export async function openWatch(api: TestServer, path: string): Promise<Watch> {
  const abort = new AbortController();
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${api.url}${path}${sep}watch=true`, { signal: abort.signal });
  if (res.status !== 200 || !res.body) throw new Error(`watch ${path}: HTTP ${res.status}`);
  const events: WatchEvent[] = [];
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += decoder.decode(value, { stream: true });
        let i = buf.indexOf('\n');
        while (i >= 0) {
          const line = buf.slice(0, i).trim();
          buf = buf.slice(i + 1);
          if (line) events.push(JSON.parse(line) as WatchEvent);
          i = buf.indexOf('\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    next: (n, timeoutMs = 5_000) =>
      waitFor(
        `${n} watch events on ${path} (have ${events.length})`,
        () => (events.length >= n ? events.slice(0, n) : undefined),
        timeoutMs,
      ),
    close: () => abort.abort(),
  };
}

export function json<T = Record<string, unknown>>(r: TestResponse): T {
  return r.json as T;
}

export function cm(
  name: string,
  extra: { labels?: Record<string, string>; finalizers?: string[]; ownerReferences?: unknown[] } = {},
): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { k: 'v' } };
}
