/**
 * A custom-resource API: start the reference server, register a CustomResourceDefinition (a
 * structural schema with a default, printer columns, a CEL validation rule), then create, list,
 * patch and server-side-apply custom objects through @orchard/client.
 */
import { pathToFileURL } from 'node:url';
import { launchApiServer } from '@orchard/apiserver';
import {
  ClientError,
  createRestClient,
  parseKubeconfig,
  type RestClient,
  resolveConnection,
} from '@orchard/client';
import { type ApiList, type ApiObject, type Flavor, type FlavorName, flavorByName } from '@orchard/meta';

/** The CRD, written against a flavor: `apiextensions.<domain>` and the `x-<product>-` markers. */
export function widgetCrd(flavor: Flavor): ApiObject {
  return {
    apiVersion: `${flavor.group('apiextensions')}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Color', type: 'string', jsonPath: '.spec.color' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['color'],
                  [flavor.ext('validations')]: [
                    {
                      rule: 'self.replicas <= self.maxReplicas',
                      message: 'replicas must not exceed maxReplicas',
                    },
                  ],
                  properties: {
                    color: { type: 'string', enum: ['red', 'green', 'blue'] },
                    replicas: { type: 'integer', minimum: 0, default: 1 },
                    maxReplicas: { type: 'integer', default: 10 },
                    labels: {
                      type: 'array',
                      items: { type: 'string' },
                      [flavor.ext('list-type')]: 'set',
                    },
                  },
                },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  };
}

export interface Widget extends ApiObject {
  spec: { color: string; replicas?: number; maxReplicas?: number; labels?: string[] };
}

const widgets = '/apis/example.com/v1/namespaces/default/widgets';
const applyType = 'application/apply-patch+yaml';

/** Waits until the CRD's resource is served (the CRD controller registers it asynchronously). */
async function untilServed(client: RestClient, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await client.raw({ path: widgets });
    if (r.status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`widgets not served after ${timeoutMs} ms (last status ${r.status})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The status code and message of a request expected to fail. */
async function failure(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ClientError) return { code: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected the request to fail');
}

export interface CustomResourceDemoResult {
  established: boolean;
  created: Widget;
  celRejection: { code: number; message: string };
  enumRejection: { code: number; message: string };
  table: { columns: string[]; rows: unknown[][] };
  patched: Widget;
  applyConflict: { code: number; message: string };
  forced: Widget;
  managers: string[];
}

/** A Widget at example.com/v1. */
function widget(name: string, spec: Record<string, unknown>): ApiObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec };
}

/** Runs every step against a fresh in-memory server and returns what it saw. */
export async function run(flavorName: FlavorName = 'kubernetes'): Promise<CustomResourceDemoResult> {
  const flavor = flavorByName(flavorName);
  // HTTPS with a generated CA and an admin client certificate, exactly as `orchard-apiserver`.
  const launched = await launchApiServer({ port: 0, server: { flavor } });
  const client = createRestClient(resolveConnection(parseKubeconfig(launched.kubeconfig)));
  try {
    const crdPath = `/apis/${flavor.group('apiextensions')}/v1/customresourcedefinitions`;
    const crd = await client.json<
      ApiObject & { status?: { conditions?: { type: string; status: string }[] } }
    >({
      method: 'POST',
      path: crdPath,
      body: widgetCrd(flavor),
    });
    const established = !!crd.status?.conditions?.some(
      (c) => c.type === 'Established' && c.status === 'True',
    );
    await untilServed(client);

    // create: `replicas` and `maxReplicas` get their schema defaults.
    const created = await client.json<Widget>({
      method: 'POST',
      path: widgets,
      body: widget('w1', { color: 'red' }),
    });

    // The CEL rule (x-…-validations) and the enum both answer 422 Invalid.
    const celRejection = await failure(
      client.json({
        method: 'POST',
        path: widgets,
        body: widget('too-many', { color: 'red', replicas: 20, maxReplicas: 5 }),
      }),
    );
    const enumRejection = await failure(
      client.json({
        method: 'POST',
        path: widgets,
        body: widget('pink', { color: 'pink' }),
      }),
    );

    // list as a Table: the printer columns, as `kubectl get widgets` shows them.
    const tableDoc = await client.json<{
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[] }[];
    }>({
      path: widgets,
      headers: { Accept: `application/json;as=Table;v=v1;g=meta.${flavor.domain}` },
    });
    const table = {
      columns: tableDoc.columnDefinitions.map((c) => c.name),
      rows: tableDoc.rows.map((r) => r.cells),
    };

    // JSON merge patch (custom resources take JSON patch, merge patch and apply; not strategic merge).
    const patched = await client.json<Widget>({
      method: 'PATCH',
      path: `${widgets}/w1`,
      query: { fieldManager: 'patcher' },
      contentType: 'application/merge-patch+json',
      body: { spec: { replicas: 3 } },
    });

    // Server-side apply: manager "ci" owns spec.color; manager "ops" asking for another color conflicts.
    const apply = (manager: string, spec: Widget['spec'], force = false) =>
      client.json<Widget>({
        method: 'PATCH',
        path: `${widgets}/w2`,
        query: { fieldManager: manager, force: force || undefined },
        contentType: applyType,
        body: widget('w2', spec),
      });
    await apply('ci', { color: 'green', labels: ['a'] });
    const applyConflict = await failure(apply('ops', { color: 'blue' }));
    const forced = await apply('ops', { color: 'blue', labels: ['b'] }, true);
    const managers = (forced.metadata?.managedFields ?? []).map((m) => `${m.manager}:${m.operation}`);

    const list = await client.json<ApiList<Widget>>({ path: widgets });
    if (list.items.length !== 2) throw new Error(`expected 2 widgets, got ${list.items.length}`);
    return {
      established,
      created,
      celRejection,
      enumRejection,
      table,
      patched,
      applyConflict,
      forced,
      managers,
    };
  } finally {
    await launched.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flavor = process.argv.includes('--orch') ? 'orch' : 'kubernetes';
  const r = await run(flavor);
  console.log('CRD established:', r.established);
  console.log('created w1 with defaults:', JSON.stringify(r.created.spec));
  console.log('CEL rule rejection:', r.celRejection.code, r.celRejection.message);
  console.log('enum rejection:', r.enumRejection.code, r.enumRejection.message);
  console.log('table columns:', r.table.columns.join(' | '));
  for (const row of r.table.rows) console.log('  ', row.join(' | '));
  console.log('after merge patch:', JSON.stringify(r.patched.spec));
  console.log('apply conflict:', r.applyConflict.code, r.applyConflict.message);
  console.log('after forced apply:', JSON.stringify(r.forced.spec), 'managers:', r.managers.join(', '));
}
