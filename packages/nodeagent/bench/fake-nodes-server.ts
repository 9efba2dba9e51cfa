/**
 * The server side of `fake-nodes.bench.ts`, in its own process so `process.cpuUsage()` and the RSS
 * are the reference server's alone: `startTestServer` (HTTPS with client certificates, memory store,
 * Node authorizer and NodeRestriction on, the node lifecycle controller running with a one-hour grace
 * so stopping one phase's nodes never makes writes during the next). Sends `{ url, kubeconfigPath }`
 * once listening; answers `{ op: 'cpu' }` with CPU µs and memory so far; `{ op: 'stop' }` exits.
 *
 * Not a benchmark of its own (no `.bench.ts`): `fake-nodes.bench.ts` forks it.
 */
import { flavorByName } from '@orchard/meta';
import { startTestServer } from '@orchard/testing';

const api = await startTestServer({
  flavor: flavorByName(process.argv[2] ?? 'orch'),
  storage: 'memory',
  server: { nodeLifecycle: { gracePeriodMs: 3_600_000 } },
});
process.send?.({ url: api.url, kubeconfigPath: api.kubeconfigPath });
process.on('message', (m: { id: number; op: 'cpu' | 'stop' }) => {
  if (m.op === 'cpu') {
    const c = process.cpuUsage();
    process.send?.({ id: m.id, cpuMicros: c.user + c.system, rss: process.memoryUsage().rss });
  } else
    void api.stop().then(() => {
      process.send?.({ id: m.id });
      process.exit(0);
    });
});
