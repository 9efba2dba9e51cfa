/**
 * The server side of `http.bench.ts`, in its own process so `process.cpuUsage` counts the server
 * alone: the reference server (insecure HTTP, memory store) and a bare `node:http` server that
 * answers each path with the bytes it is told (the same bytes the reference server answered).
 * Driven over IPC: `cpu` (CPU µs and memory so far), `bare` (set the bare server's answers),
 * `prefill` (put config maps straight into the store, for the create-at-scale runs).
 *
 * Not a benchmark of its own (no `.bench.ts`): `http.bench.ts` forks it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiServer } from '../src/index.js';

/** A canned answer of the bare server. */
export interface BareAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string; // base64
}

/** A request of the driver to this process. */
export type BenchServerRequest =
  | { readonly id: number; readonly op: 'cpu' }
  | { readonly id: number; readonly op: 'bare'; readonly answers: Record<string, BareAnswer> }
  | {
      readonly id: number;
      readonly op: 'prefill';
      readonly namespace: string;
      readonly from: number;
      readonly to: number;
    };

const answers = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
const bare = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const path = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    const a = answers.get(path) ?? answers.get(`${req.method} *`);
    if (!a) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  });
});
await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));

const api = createApiServer();
const { url } = await api.listen(0);
await api.ready;
const encoder = new TextEncoder();

async function prefill(namespace: string, from: number, to: number): Promise<void> {
  const ts = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  for (let i = from; i < to; i++) {
    const name = `p-${i}`;
    const obj = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name,
        namespace,
        uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        creationTimestamp: ts,
      },
      data: { a: 'b' },
    };
    await api.storage.create(`/core/configmaps/${namespace}/${name}`, encoder.encode(JSON.stringify(obj)));
  }
  await settle();
}

/**
 * Waits until the server has taken in what the prefill put into its store: the watch caches and
 * the lifecycle controllers follow the store's events after the puts return, and creates measured
 * during that catch-up would measure it, not the store's size. Settled: two quarter-seconds in a
 * row below a tenth of a core (at most 60 s).
 */
async function settle(): Promise<void> {
  const quarter = 250;
  let quiet = 0;
  for (let i = 0; i < 240 && quiet < 2; i++) {
    const before = process.cpuUsage();
    await new Promise((r) => setTimeout(r, quarter));
    const used = process.cpuUsage(before);
    quiet = (used.user + used.system) / 1000 < quarter / 10 ? quiet + 1 : 0;
  }
}

process.on('message', (m: BenchServerRequest) => {
  void (async () => {
    switch (m.op) {
      case 'cpu': {
        const c = process.cpuUsage();
        const mem = process.memoryUsage();
        process.send?.({ id: m.id, cpuMicros: c.user + c.system, rss: mem.rss, heapUsed: mem.heapUsed });
        return;
      }
      case 'bare':
        for (const [path, a] of Object.entries(m.answers)) {
          const body = Buffer.from(a.body, 'base64');
          answers.set(path, {
            status: a.status,
            headers: { 'content-type': a.contentType, 'content-length': String(body.byteLength) },
            body,
          });
        }
        process.send?.({ id: m.id });
        return;
      case 'prefill':
        await prefill(m.namespace, m.from, m.to);
        process.send?.({ id: m.id });
        return;
    }
  })().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
});
process.on('disconnect', () => {
  void api.close().then(() => bare.close(() => process.exit(0)));
});
process.send?.({ ready: true, url, bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}` });
