/**
 * A tiny controller: an @orchard/client informer watches the ConfigMaps of one namespace and the
 * controller keeps a derived ConfigMap, `summary`, whose data lists every other ConfigMap and counts
 * their keys. It works against any server a RestClient reaches (reference server, real cluster).
 *
 * The controller pattern in miniature:
 * - the informer lists, then watches from the list's resourceVersion with bookmarks; when a watch
 *   ends (timeout, dropped connection) it resumes from the last version it saw; on 410 Gone it
 *   relists and diffs, so handlers never miss a change;
 * - handlers only mark the controller dirty; one reconcile at a time reads the informer's cache
 *   (not the server) and writes the desired state;
 * - the write is a server-side apply with the controller's own field manager, so it is idempotent
 *   and never clobbers fields other managers own on `summary`.
 */
import type { Informer, RestClient } from '@orchard/client';
import { createInformer } from '@orchard/client';
import type { ApiObject } from '@orchard/meta';

export interface SummaryControllerOptions {
  client: RestClient;
  namespace?: string;
  /** Name of the derived ConfigMap (default `summary`). */
  summaryName?: string;
  /** Field manager of the controller's applies (default `summary-controller`). */
  fieldManager?: string;
  /** Passed to the informer: `timeoutSeconds` of each watch (default: the informer's 300–600 s). */
  watchTimeoutSeconds?: number;
  onError?: (err: unknown) => void;
}

export interface SummaryController {
  readonly informer: Informer<ConfigMap>;
  /** Number of completed reconciles (each one apply). */
  readonly reconciles: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface ConfigMap extends ApiObject {
  data?: Record<string, string>;
}

/** The desired `summary` data for a set of ConfigMaps (pure, so it is easy to test). */
export function summarize(items: readonly ConfigMap[], summaryName: string): Record<string, string> {
  const sources = items
    .filter((cm) => cm.metadata?.name !== summaryName && !cm.metadata?.deletionTimestamp)
    .sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
  return {
    count: String(sources.length),
    names: sources.map((cm) => cm.metadata?.name).join(','),
    keys: String(sources.reduce((n, cm) => n + Object.keys(cm.data ?? {}).length, 0)),
  };
}

export function createSummaryController(o: SummaryControllerOptions): SummaryController {
  const namespace = o.namespace ?? 'default';
  const summaryName = o.summaryName ?? 'summary';
  const fieldManager = o.fieldManager ?? 'summary-controller';
  let dirty = false;
  let running: Promise<void> | undefined;
  let stopped = false;
  let reconciles = 0;
  let last = '';

  const informer = createInformer<ConfigMap>({
    client: o.client,
    path: `/api/v1/namespaces/${namespace}/configmaps`,
    ...(o.watchTimeoutSeconds ? { timeoutSeconds: () => o.watchTimeoutSeconds as number } : {}),
    onAdd: (cm) => changed(cm),
    onUpdate: (_old, cm) => changed(cm),
    onDelete: (cm) => changed(cm),
    onError: (e) => o.onError?.(e),
  });

  function changed(cm: ConfigMap): void {
    // Our own writes to `summary` come back as events too; they change nothing we derive from.
    if (cm.metadata?.name === summaryName) return;
    enqueue();
  }

  function enqueue(): void {
    dirty = true;
    running ??= loop().finally(() => {
      running = undefined;
      if (dirty && !stopped) enqueue(); // a change that arrived as the loop was ending
    });
  }

  async function loop(): Promise<void> {
    while (dirty && !stopped) {
      dirty = false;
      try {
        await reconcile();
      } catch (e) {
        o.onError?.(e);
        dirty = true; // try again after a pause
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  async function reconcile(): Promise<void> {
    const data = summarize(informer.list(), summaryName);
    const key = JSON.stringify(data);
    if (key === last) return;
    await o.client.json({
      method: 'PATCH',
      path: `/api/v1/namespaces/${namespace}/configmaps/${summaryName}`,
      query: { fieldManager, force: true },
      contentType: 'application/apply-patch+yaml',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: summaryName }, data },
    });
    last = key;
    reconciles++;
  }

  return {
    informer,
    get reconciles() {
      return reconciles;
    },
    async start() {
      informer.start();
      await informer.synced();
      enqueue(); // write the summary even when the namespace holds no ConfigMap yet
    },
    async stop() {
      stopped = true;
      await informer.stop();
      await running;
    },
  };
}
