/**
 * Watch fan-out over real HTTP: N watch connections (default 1 000; 10 000 sockets on 2 cores
 * measure the kernel — see packages/watch-cache/bench/fanout.bench.ts for 10 000 in process) to one
 * reference server, E ConfigMap creations through HTTP (default 200, one at a time), server and clients
 * in one process. Reports events delivered per second and p50/p99 latency from the create's response
 * to the event parsed by each client. Baseline, same run: one watch connection (the per-event cost
 * of the server pipeline without fan-out).
 *
 * Run: `pnpm bench apiserver` (or `node --import tsx packages/apiserver/bench/watch-fanout.bench.ts`).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createApiServer } from '../src/index.js';

const WATCHERS = Number(process.env.WATCHERS ?? 1_000);
const EVENTS = Number(process.env.EVENTS ?? 200);

async function run(
  watchers: number,
): Promise<{ deliveries: number; seconds: number; p50: number; p99: number }> {
  const server = createApiServer({});
  const { url } = await server.listen(0);
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const base = '/api/v1/namespaces/default/configmaps';
  const post = (name: string) =>
    new Promise<string>((resolve, reject) => {
      const body = JSON.stringify({ metadata: { name }, data: { k: 'v'.repeat(200) } });
      const req = request(
        `${url}${base}`,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () =>
            resolve((JSON.parse(text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const rv = await post('start');
  const sent = new Map<string, number>();
  const latencies: number[] = [];
  let deliveries = 0;
  let allDone: () => void = () => {};
  const done = new Promise<void>((r) => {
    allDone = r;
  });
  let finished = 0;
  const reqs = await Promise.all(
    Array.from(
      { length: watchers },
      () =>
        new Promise<import('node:http').ClientRequest>((resolve, reject) => {
          const req = request(`${url}${base}?watch=1&resourceVersion=${rv}`, { agent }, (res) => {
            let buf = '';
            let n = 0;
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              buf += chunk;
              const now = performance.now();
              for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
                const line = buf.slice(0, nl);
                buf = buf.slice(nl + 1);
                const ev = JSON.parse(line) as { object: { metadata: { resourceVersion: string } } };
                const t = sent.get(ev.object.metadata.resourceVersion);
                if (t !== undefined) latencies.push(now - t);
                deliveries++;
                if (++n === EVENTS && ++finished === watchers) allDone();
              }
            });
            resolve(req);
          });
          req.on('error', reject);
          req.end();
        }),
    ),
  );
  const t0 = performance.now();
  for (let i = 0; i < EVENTS; i++) {
    const before = performance.now();
    const rv = await post(`cm-${i}`);
    // The event may be written before the response is read: count from when the request was sent.
    sent.set(rv, before);
  }
  await done;
  const seconds = (performance.now() - t0) / 1000;
  for (const r of reqs) r.destroy();
  agent.destroy();
  await server.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? Number.NaN;
  return { deliveries, seconds, p50: q(0.5), p99: q(0.99) };
}

function report(name: string, r: Awaited<ReturnType<typeof run>>): void {
  console.log(
    `${name.padEnd(36)} ${String(r.deliveries).padStart(8)} deliveries in ${r.seconds.toFixed(2)} s = ${Math.round(r.deliveries / r.seconds)} events/s; latency p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`,
  );
}

console.log(`watch fan-out over HTTP: ${WATCHERS} watchers × ${EVENTS} creates (node ${process.version})`);
report('baseline: 1 watcher', await run(1));
report(`${WATCHERS} watchers`, await run(WATCHERS));
