/**
 * Runs the summary controller (`controller.ts`) against an in-process reference server: creates,
 * changes and deletes ConfigMaps, forces watch disconnects (short watch timeouts) and a 410 Gone
 * (the server restarts its watch caches), and shows the summary following along.
 */
import { pathToFileURL } from 'node:url';
import { launchApiServer } from '@orchard/apiserver';
import { createRestClient, parseKubeconfig, type RestClient, resolveConnection } from '@orchard/client';
import { kubernetesFlavor } from '@orchard/meta';
import { type ConfigMap, createSummaryController } from './controller.js';

const configmaps = '/api/v1/namespaces/default/configmaps';

/** Polls `summary` until `check` accepts its data. */
export async function waitForSummary(
  client: RestClient,
  check: (data: Record<string, string>) => boolean,
  timeoutMs = 5000,
): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  let data: Record<string, string> = {};
  for (;;) {
    const r = await client.raw({ path: `${configmaps}/summary` });
    if (r.status === 200) {
      data = (JSON.parse(Buffer.from(r.body).toString('utf8')) as ConfigMap).data ?? {};
      if (check(data)) return data;
    }
    if (Date.now() > deadline) throw new Error(`summary not reached; last data ${JSON.stringify(data)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface ControllerDemoResult {
  steps: { step: string; data: Record<string, string> }[];
  stats: { lists: number; watches: number; relistsAfterGone: number; events: number };
  reconciles: number;
  errors: number;
}

export async function run(log: (line: string) => void = () => {}): Promise<ControllerDemoResult> {
  const launched = await launchApiServer({ port: 0, server: { flavor: kubernetesFlavor } });
  const client = createRestClient(resolveConnection(parseKubeconfig(launched.kubeconfig)));
  let errors = 0;
  // A 1-second watch timeout makes the informer resume several times during the demo.
  const controller = createSummaryController({ client, watchTimeoutSeconds: 1, onError: () => errors++ });
  const steps: ControllerDemoResult['steps'] = [];
  const step = async (name: string, check: (d: Record<string, string>) => boolean) => {
    const data = await waitForSummary(client, check);
    steps.push({ step: name, data });
    log(`${name}: ${JSON.stringify(data)}`);
  };
  const create = (name: string, data: Record<string, string>) =>
    client.json({ method: 'POST', path: configmaps, body: { metadata: { name }, data } });
  try {
    await create('app', { a: '1' });
    await controller.start();
    await step('started with one ConfigMap', (d) => d.names === 'app');

    await create('db', { host: 'x', port: '5432' });
    await step('created db', (d) => d.names === 'app,db' && d.keys === '3');

    await client.json({
      method: 'PATCH',
      path: `${configmaps}/app`,
      contentType: 'application/merge-patch+json',
      body: { data: { b: '2' } },
    });
    await step('patched app', (d) => d.keys === '4');

    // Let a few watches end and resume from the last resourceVersion seen.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    await create('cache', {});
    await step('created cache after watch timeouts', (d) => d.names === 'app,cache,db');

    // Every watch of the server ends with 410 Gone: the informer relists and diffs.
    await launched.server.watchCaches.restartAll();
    await client.json({ method: 'DELETE', path: `${configmaps}/db` });
    await step('deleted db after a 410', (d) => d.names === 'app,cache' && d.count === '2');

    const { lists, watches, relistsAfterGone, events } = controller.informer.stats;
    return {
      steps,
      stats: { lists, watches, relistsAfterGone, events },
      reconciles: controller.reconciles,
      errors,
    };
  } finally {
    await controller.stop();
    await launched.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await run((line) => console.log(line));
  console.log('informer stats:', JSON.stringify(r.stats), 'reconciles:', r.reconciles);
}
