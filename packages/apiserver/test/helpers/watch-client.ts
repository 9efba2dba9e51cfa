import { createRestClient, decodeWatchEvents, type RestClient } from '@orchard/client';
import type { ApiObject, WatchEvent } from '@orchard/meta';

export interface OpenWatch {
  status: number;
  events: WatchEvent<ApiObject & { code?: number; reason?: string; message?: string }>[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Waits until at least `n` events arrived (or fails after ~5 s). */
  until(n: number): Promise<void>;
  /** Waits until an event satisfies `pred`. */
  untilEvent(pred: (e: WatchEvent) => boolean): Promise<WatchEvent>;
  close(): void;
}

/** Opens a watch with @orchard/client and collects its events. Rejects (ClientError) on an HTTP error status. */
export async function openWatch(
  client: RestClient,
  path: string,
  query: Record<string, string>,
): Promise<OpenWatch> {
  const abort = new AbortController();
  const res = await client.stream({ path, query: { watch: '1', ...query }, signal: abort.signal });
  const events: OpenWatch['events'] = [];
  const ended = (async () => {
    try {
      for await (const ev of decodeWatchEvents(res.body)) events.push(ev as OpenWatch['events'][number]);
    } catch {
      // aborted
    }
  })();
  const wait = async (ok: () => boolean, what: string) => {
    for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!ok())
      throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(events.map((e) => e.type))}`);
  };
  return {
    status: res.status,
    events,
    ended,
    until: (n) => wait(() => events.length >= n, `${n} events`),
    async untilEvent(pred) {
      await wait(() => events.some(pred), 'a matching event');
      return events.find(pred) as WatchEvent;
    },
    close: () => abort.abort(),
  };
}

export function httpClient(url: string): RestClient {
  return createRestClient({ server: url });
}
