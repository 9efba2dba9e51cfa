/**
 * Soak: the reference server in its own process under a bounded mixed load on loopback for a fixed
 * time (default 10 minutes), sampling its resident memory. The object count stays bounded (names
 * cycle), so a server without leaks holds its RSS flat once the watch window and compaction reach
 * their steady state. Not part of `pnpm bench` (it takes minutes):
 *
 *   node --import tsx packages/apiserver/bench/soak.ts [--minutes 10] [--concurrency 16] [--rate 600]
 *
 * Prints one line per sample and a summary: RSS of the first steady-state minute (minute 4, after
 * the one-minute watch window and compaction interval have cycled twice) vs the last one.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    objects: { type: 'string', default: '500' },
    rate: { type: 'string', default: '600' },
  },
});
const minutes = Number(values.minutes);
const concurrency = Number(values.concurrency);
const objects = Number(values.objects);
// A fixed request rate: the history the server keeps (watch window, compaction) is proportional to
// the write rate, so only a constant rate has a steady state to compare against.
const rate = Number(values.rate);
const windowArg = '1m'; // watch window and compaction: steady state after about a minute

const bin = join(import.meta.dirname, '..', 'bin', 'orchard-apiserver.mjs');
const server = spawn(
  process.execPath,
  [
    bin,
    '--insecure-http',
    '--storage',
    'memory',
    '--port',
    '0',
    '--watch-window',
    windowArg,
    '--compaction-interval',
    windowArg,
    '--kubeconfig-out',
    '/tmp/orchard-soak.kubeconfig',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise<URL>((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /listening on (\S+)/.exec(out);
    if (m) resolve(new URL(m[1] as string));
  });
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: concurrency + 8 });
function call(
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<number> {
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      new URL(path, url),
      {
        method,
        agent,
        headers: data ? { 'content-type': contentType, 'content-length': Buffer.byteLength(data) } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(data);
  });
}

function serverRssMiB(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const cms = '/api/v1/namespaces/default/configmaps';
const deadline = Date.now() + minutes * 60_000;
let requests = 0;
let errors = 0;
async function worker(id: number): Promise<void> {
  const begin = Date.now();
  const perRequestMs = (1000 * concurrency) / rate;
  for (let i = 0; Date.now() < deadline; i++) {
    const due = begin + i * perRequestMs;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    const name = `soak-${(id * 7919 + i) % objects}`;
    const op = i % 6;
    let code: number;
    if (op === 0)
      code = await call('POST', cms, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name },
        data: { i: String(i), pad: 'x'.repeat(512) },
      });
    else if (op === 1)
      code = await call(
        'PATCH',
        `${cms}/${name}`,
        { data: { i: String(i) } },
        'application/merge-patch+json',
      );
    else if (op === 2) code = await call('GET', `${cms}/${name}`);
    else if (op === 3) code = await call('GET', `${cms}?limit=50`);
    else if (op === 4)
      code = await call(
        'PATCH',
        `${cms}/${name}?fieldManager=soak&force=true`,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: String(i) } },
        'application/apply-patch+yaml',
      );
    else code = await call('DELETE', `${cms}/${name}`);
    requests++;
    if (code === 0 || code >= 500) errors++;
  }
}
/** Watches that end and reconnect, as informers do. */
async function watcher(): Promise<void> {
  while (Date.now() < deadline) await call('GET', `${cms}?watch=1&timeoutSeconds=20`);
}

const samples: { t: number; rss: number }[] = [];
const started = Date.now();
const sampler = setInterval(() => {
  const s = { t: (Date.now() - started) / 1000, rss: serverRssMiB() };
  samples.push(s);
  console.log(`t=${s.t.toFixed(0)}s rss=${s.rss.toFixed(1)} MiB requests=${requests} errors=${errors}`);
}, 10_000);
await Promise.all([
  ...Array.from({ length: concurrency }, (_, i) => worker(i)),
  watcher(),
  watcher(),
  watcher(),
]);
clearInterval(sampler);
server.kill('SIGTERM');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const steadyFrom = 180; // after the 1-minute window and compaction interval cycled twice
const first = median(samples.filter((s) => s.t >= steadyFrom && s.t < steadyFrom + 60).map((s) => s.rss));
const last = median(samples.filter((s) => s.t >= minutes * 60 - 60).map((s) => s.rss));
const change = first > 0 ? ((last - first) / first) * 100 : Number.NaN;
console.log(
  `soak: ${minutes} min, ${requests} requests (${(requests / (minutes * 60)).toFixed(0)}/s), ${errors} errors; ` +
    `RSS minute 4 ${first.toFixed(1)} MiB → last minute ${last.toFixed(1)} MiB (${change >= 0 ? '+' : ''}${change.toFixed(1)}%)`,
);
process.exit(0);
