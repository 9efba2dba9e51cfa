/**
 * Embedding the Orchard API handler in an existing node:http server.
 *
 * The app serves its own routes (`/hello`) and mounts the API under `/k8s`: requests below the
 * prefix have it stripped and go to `api.handle`; everything else stays with the app. The API uses
 * the in-memory store. It has no TLS here, so the API itself treats every request as `insecureUser`;
 * the app puts its own bearer-token check in front of the mount point.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createApiServer, defineResource } from '@orchard/apiserver';
import { createRestClient } from '@orchard/client';
import { type ApiList, type ApiObject, kubernetesFlavor } from '@orchard/meta';

export interface EmbeddedApp {
  /** The app's base URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Where the API is mounted, `http://127.0.0.1:PORT/k8s` (a kubeconfig `server:` may carry the path). */
  readonly apiUrl: string;
  close(): Promise<void>;
}

export interface EmbeddedAppOptions {
  port?: number;
  /** The bearer token the app requires below the mount point. */
  token?: string;
}

const prefix = '/k8s';

export async function startApp(options: EmbeddedAppOptions = {}): Promise<EmbeddedApp> {
  const token = options.token ?? 'let-me-in';
  const api = createApiServer({
    flavor: kubernetesFlavor, // upstream identifiers, so kubectl works against `${apiUrl}` too
    insecureUser: { username: 'app-user', groups: ['system:masters', 'system:authenticated'] },
  });
  // The app's own resource type, served next to the built-ins (discovery included).
  api.registry.add(
    defineResource({
      group: 'example.com',
      versions: ['v1'],
      resource: 'notes',
      kind: 'Note',
      namespaced: true,
    }),
  );

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    if (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`)) {
      if (req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized\n');
        return;
      }
      req.url = path.slice(prefix.length) || '/';
      api.handle(req, res);
      return;
    }
    if (path === '/hello') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello from the app\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  await api.ready; // default namespaces exist
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    apiUrl: `${url}${prefix}`,
    async close() {
      await api.close(); // ends open watches and stops the API's controllers
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface DemoResult {
  hello: string;
  configMapNames: string[];
  note: ApiObject;
  unauthorizedStatus: number;
}

/** Starts the app, talks to both halves of it, stops it. */
export async function demo(): Promise<DemoResult> {
  const app = await startApp({ token: 'let-me-in' });
  try {
    const hello = await (await fetch(`${app.url}/hello`)).text();
    const unauthorizedStatus = (await fetch(`${app.apiUrl}/api/v1/namespaces`)).status;

    // @orchard/client keeps the path of `server`, so every request goes below /k8s.
    const client = createRestClient({ server: app.apiUrl, token: 'let-me-in' });
    await client.json({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { theme: 'dark' } },
    });
    const list = await client.json<ApiList>({ path: '/api/v1/namespaces/default/configmaps' });
    const note = await client.json<ApiObject>({
      method: 'POST',
      path: '/apis/example.com/v1/namespaces/default/notes',
      body: { apiVersion: 'example.com/v1', kind: 'Note', metadata: { name: 'first' }, text: 'hi' },
    });
    return {
      hello,
      configMapNames: list.items.map((o) => String(o.metadata?.name)),
      note,
      unauthorizedStatus,
    };
  } finally {
    await app.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--serve')) {
    const app = await startApp({ port: 8080 });
    console.log(`app on ${app.url}/hello, API on ${app.apiUrl} (Authorization: Bearer let-me-in)`);
    process.on('SIGINT', () => void app.close().then(() => process.exit(0)));
  } else {
    const r = await demo();
    console.log('GET /hello ->', r.hello.trim());
    console.log('GET /k8s/api/v1/namespaces without the token ->', r.unauthorizedStatus);
    console.log('config maps under /k8s:', r.configMapNames.join(', '));
    console.log(
      'created Note',
      `${r.note.metadata?.namespace}/${r.note.metadata?.name}`,
      'uid',
      r.note.metadata?.uid,
    );
  }
}
