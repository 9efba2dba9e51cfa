/**
 * One Node-authorizer decision with 10,000 bound pods in the graph (100 nodes × 100 pods, each pod
 * using 3 Secrets, 1 ConfigMap, 1 ServiceAccount and 1 claim), against a naive scan of every pod for
 * the same question, in the same run; plus the cost of pod updates (`setPod`), what each Pod event
 * of the watch cache costs the server (the move bench does two: there and back).
 *
 *   pnpm bench authz      (or: npx tsx packages/authz/bench/node.bench.ts)
 */
import { kubernetesFlavor } from '@orchard/meta';
import { bench, do_not_optimize, run, summary } from 'mitata';
import {
  type AuthorizationAttributes,
  createNodeAuthorizer,
  createNodeGraph,
  podReferences,
} from '../src/index.js';

const nodes = 100;
const podsPerNode = 100;

function pod(n: number, i: number) {
  const ns = `ns-${i % 50}`;
  return {
    metadata: { name: `pod-${n}-${i}`, namespace: ns },
    spec: {
      nodeName: `node-${n}`,
      serviceAccountName: `sa-${i % 20}`,
      imagePullSecrets: [{ name: `pull-${n}` }],
      containers: [
        {
          name: 'c',
          envFrom: [{ configMapRef: { name: `cm-${n}-${i}` } }],
          env: [{ name: 'T', valueFrom: { secretKeyRef: { name: `token-${n}-${i}`, key: 'k' } } }],
        },
      ],
      volumes: [
        { name: 'tls', secret: { secretName: `tls-${n}-${i}` } },
        { name: 'data', persistentVolumeClaim: { claimName: `data-${n}-${i}` } },
      ],
    },
  };
}

const graph = createNodeGraph();
const all: ReturnType<typeof pod>[] = [];
for (let n = 0; n < nodes; n++)
  for (let i = 0; i < podsPerNode; i++) {
    const p = pod(n, i);
    all.push(p);
    graph.setPod(p);
  }
const z = createNodeAuthorizer({ graph, flavor: kubernetesFlavor });

/** The naive answer: scan every pod of the cluster for one on `node` referring to the secret. */
function naive(node: string, namespace: string, name: string): boolean {
  for (const p of all)
    if (
      p.spec.nodeName === node &&
      p.metadata.namespace === namespace &&
      podReferences(p).some((r) => r.kind === 'secret' && r.name === name)
    )
      return true;
  return false;
}

function secretGet(node: number, n: number, i: number): AuthorizationAttributes {
  return {
    user: { username: `system:node:node-${node}`, groups: ['system:nodes', 'system:authenticated'] },
    verb: 'get',
    isResourceRequest: true,
    path: '',
    apiGroup: '',
    apiVersion: 'v1',
    namespace: `ns-${i % 50}`,
    resource: 'secrets',
    subresource: '',
    name: `tls-${n}-${i}`,
  };
}

// 256 questions, half related (the node's own pod's secret), half not (another node's).
const questions = Array.from({ length: 256 }, (_, k) => {
  const node = (k * 37) % nodes;
  const i = (k * 13) % podsPerNode;
  return k % 2 === 0 ? secretGet(node, node, i) : secretGet(node, (node + 1) % nodes, i);
});
let agree = 0;
for (const a of questions) {
  const r = z.authorize(a);
  if (r instanceof Promise) throw new Error('the Node authorizer must decide synchronously');
  if ((r.decision === 'allow') === naive(a.user.username.slice('system:node:'.length), a.namespace, a.name))
    agree++;
}
if (agree !== questions.length)
  throw new Error(`graph and scan disagree on ${questions.length - agree} questions`);
console.log(`${graph.podCount} pods on ${nodes} nodes; ${questions.length} questions; graph = scan on all`);

let qi = 0;
let ui = 0;
summary(() => {
  bench('Node authorizer: get secret (graph look-up)', () => {
    do_not_optimize(z.authorize(questions[qi++ & 255] as AuthorizationAttributes));
  });
  bench('baseline: scan every pod for the same question', () => {
    const a = questions[qi++ & 255] as AuthorizationAttributes;
    do_not_optimize(naive(a.user.username.slice('system:node:'.length), a.namespace, a.name));
  });
});
// A status update keeps node and references (the common Pod event); a move re-links all 6 references.
const moved = all.map((p) => ({ ...p, spec: { ...p.spec, nodeName: `${p.spec.nodeName}-b` } }));
bench('graph update: setPod, same node and references (a status update)', () => {
  graph.setPod(all[ui++ % all.length]);
});
bench('graph update: setPod, pod moves to another node (6 references re-linked)', () => {
  const i = ui++ % all.length;
  graph.setPod(moved[i]);
  graph.setPod(all[i]);
});
await run();
