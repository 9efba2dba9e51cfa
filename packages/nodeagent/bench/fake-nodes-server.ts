/**
 * The server side of `fake-nodes.bench.ts`, in its own process so `process.cpuUsage()` and the RSS
 * are the reference server's alone: `startTestServer` (HTTPS with client certificates, memory store,
 * Node authorizer and NodeRestriction on, the node lifecycle controller running with a one-hour grace
 * so stopping one phase's nodes never makes writes during the next). Sends `{ url, kubeconfigPath }`
 * once listening; answers `{ op: 'cpu' }` with CPU µs, memory and connections accepted so far, `{ op: 'loop' }` with its
 * event-loop delay p99 and max since the last such question; `{ op: 'stop' }` exits.
 *
 * Not a benchmark of its own (no `.bench.ts`): `fake-nodes.bench.ts` forks it.
 */
import { subscribe } from 'node:diagnostics_channel';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { flavorByName } from '@orchard/meta';
import { startTestServer } from '@orchard/testing';

// Connections accepted (TLS handshakes): a keep-alive pool that holds its sockets adds none.
let connections = 0;
subscribe('net.server.socket', () => {
  connections++;
});
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const api = await startTestServer({
  flavor: flavorByName(process.argv[2] ?? 'orch'),
  storage: 'memory',
  server: { nodeLifecycle: { gracePeriodMs: 3_600_000 } },
});
process.send?.({ url: api.url, kubeconfigPath: api.kubeconfigPath });
// The driver gone (crashed, killed): never outlive it.
process.on('disconnect', () => process.exit(0));
process.on('message', (m: { id: number; op: 'cpu' | 'loop' | 'stop' }) => {
  if (m.op === 'loop') {
    // The server's event-loop delay since the last 'loop' (ms): a stall here is the server's own.
    process.send?.({ id: m.id, loopP99Ms: loop.percentile(99) / 1e6, loopMaxMs: loop.max / 1e6 });
    loop.reset();
  } else if (m.op === 'cpu') {
    const c = process.cpuUsage();
    process.send?.({ id: m.id, cpuMicros: c.user + c.system, rss: process.memoryUsage().rss, connections });
  } else
    void api.stop().then(() => {
      process.send?.({ id: m.id });
      process.exit(0);
    });
});
