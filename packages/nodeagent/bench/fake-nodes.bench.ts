/**
 * Load: N fake nodes (default 1,000), each with its own identity (client certificate
 * CN=system:node:<name>, O=system:nodes) heartbeating against one reference server for D seconds
 * (default 120): the Lease every 10 s and the status check every 10 s, as upstream's defaults. The
 * server runs in this process (startTestServer, Node authorizer on); the agents run in a child process,
 * so `process.cpuUsage()` here is the server's CPU. Prints Lease update latency p50/p99, renewals per
 * node and failed renewals.
 *
 *   cd packages/nodeagent && npx tsx bench/fake-nodes.bench.ts        # BENCH_NODES, BENCH_SECONDS
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '@orchard/testing';

const nodes = Number(process.env.BENCH_NODES ?? 1000);
const seconds = Number(process.env.BENCH_SECONDS ?? 120);
const flavor = process.env.BENCH_FLAVOR === 'kubernetes' ? 'kubernetes' : 'orch';

const api = await startTestServer({ flavor, server: { nodeLifecycle: {} } });
const t0 = performance.now();
const configs: { name: string; kubeconfig: string }[] = [];
for (let i = 0; i < nodes; i++) {
  const name = `fake-${i}`;
  configs.push({
    name,
    kubeconfig: await api.kubeconfigFor({ username: `system:node:${name}`, groups: ['system:nodes'] }),
  });
}
console.log(`${nodes} node identities minted in ${Math.round(performance.now() - t0)} ms`);
const plan = join(tmpdir(), `fake-nodes-${process.pid}.json`);
writeFileSync(plan, JSON.stringify({ flavor, seconds, configs }));

const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(import.meta.dirname, 'fake-nodes-child.ts'), plan],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let out = '';
child.stdout.on('data', (d) => {
  out += d;
});
// Server CPU over the heartbeat window only (the child says when every node has registered).
let cpuStart: NodeJS.CpuUsage | undefined;
let wallStart = 0;
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    if (!cpuStart && out.includes('registered')) {
      cpuStart = process.cpuUsage();
      wallStart = performance.now();
    }
  }, 50);
  child.on('exit', () => {
    clearInterval(timer);
    resolve();
  });
});
const cpu = process.cpuUsage(cpuStart);
const wall = performance.now() - wallStart;
const result = JSON.parse(out.slice(out.indexOf('{'))) as Record<string, unknown>;
console.log(JSON.stringify(result));
console.log(
  `server CPU during the heartbeat window: ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(1)}% of one core over ${(wall / 1000).toFixed(0)} s`,
);
await api.stop();
