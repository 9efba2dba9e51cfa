import type { RestClient } from '@orchard/client';
import { startTestServer, type TestServer } from '@orchard/testing';

/** What the resourceVersion suites share: the seeded server, its namespace and list helpers. */

/** A ConfigMap list as the suites read it. */
export interface List {
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: {
    metadata: { name: string; resourceVersion: string; labels?: Record<string, string> };
    data?: Record<string, string>;
  }[];
}
/** A Status body as the suites read it. */
export interface StatusBody {
  kind: string;
  code: number;
  reason: string;
  message: string;
  metadata: { continue?: string };
  details?: { retryAfterSeconds?: number };
}

/** The namespace of the suites. */
export const NS = 'rv';
/** The ConfigMaps of {@link NS}. */
export const base = `/api/v1/namespaces/${NS}/configmaps`;
/** The names of a list's items, in order. */
export const names = (l: List) => l.items.map((i) => i.metadata.name);

/**
 * Starts the suites' server (plain HTTP, a short watch-cache wait and bookmark interval) and creates
 * {@link NS} with the ConfigMaps a, b, c, d, e labelled `tier=web`; `rvAfter` holds the revision
 * after each create.
 */
export async function startSeededServer(
  flavor: 'orch' | 'kubernetes',
): Promise<{ api: TestServer; client: RestClient; rvAfter: Record<string, number> }> {
  const api = await startTestServer({
    flavor,
    insecureHttp: true,
    server: { watchCache: { tooLargeWaitMs: 200, bookmarkIntervalMs: 100 } },
  });
  const rvAfter: Record<string, number> = {};
  await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
  for (const n of ['a', 'b', 'c', 'd', 'e']) {
    const r = await api.request('POST', base, {
      body: { metadata: { name: n, labels: { tier: 'web' } }, data: { v: '1' } },
    });
    if (r.status !== 201) throw new Error(`creating ${n}: ${r.status} ${r.text}`);
    rvAfter[n] = Number((r.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
  }
  return { api, client: api.client, rvAfter };
}

/** A list of {@link base} with `query`. */
export async function listAt(
  api: TestServer,
  query: string,
): Promise<{ status: number; body: List & StatusBody; headers: Record<string, unknown> }> {
  const r = await api.request('GET', `${base}${query ? `?${query}` : ''}`);
  return { status: r.status, body: r.json as List & StatusBody, headers: r.headers };
}
