/** The agents of fake-nodes.bench.ts: one `startNodeAgent` per node, each with its own client. */
import { readFileSync } from 'node:fs';
import { createRestClient, loadKubeconfig, resolveConnection } from '@orchard/client';
import { flavorByName } from '@orchard/meta';
import { type NodeAgent, startNodeAgent } from '../src/index.js';
import { fakeMachine } from '../test/helpers.js';

const plan = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as {
  flavor: string;
  seconds: number;
  configs: { name: string; kubeconfig: string }[];
};
const flavor = flavorByName(plan.flavor);
const latencies: number[] = [];
const renewals = new Map<string, number>();
let failures = 0;
let measuring = false;
const agents: NodeAgent[] = plan.configs.map(({ name, kubeconfig }) =>
  startNodeAgent({
    client: createRestClient(resolveConnection(loadKubeconfig(kubeconfig))),
    flavor,
    nodeName: name,
    machine: fakeMachine(name),
    onEvent: (e) => {
      if (!measuring || e.loop !== 'lease') return;
      if (e.type === 'retry') failures++;
      else {
        latencies.push(e.latencyMs);
        renewals.set(name, (renewals.get(name) ?? 0) + 1);
      }
    },
  }),
);
await Promise.all(agents.map((a) => a.registered));
measuring = true;
process.stdout.write('registered\n');
await new Promise((r) => setTimeout(r, plan.seconds * 1000));
measuring = false;
await Promise.all(agents.map((a) => a.stop()));
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0;
const perNode = [...renewals.values()];
process.stdout.write(
  `${JSON.stringify({
    nodes: plan.configs.length,
    seconds: plan.seconds,
    leaseUpdates: latencies.length,
    p50Ms: Number(pct(50).toFixed(1)),
    p99Ms: Number(pct(99).toFixed(1)),
    maxMs: Number((latencies.at(-1) ?? 0).toFixed(1)),
    failedRenewals: failures,
    nodesRenewing: perNode.length,
    minRenewalsPerNode: Math.min(...perNode),
    maxRenewalsPerNode: Math.max(...perNode),
  })}\n`,
);
