import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiObject } from '@orchard/meta';
import { afterEach, describe, expect, it } from 'vitest';
import { isClientError } from './errors.js';
import { createInformer } from './informer.js';
import { loadKubeconfig, parseKubeconfig, resolveConnection } from './kubeconfig.js';
import { listAll } from './list-pager.js';
import { createRestClient } from './rest-client.js';
import { decodeWatchEvents } from './watch-decoder.js';

type Handler = (req: http.IncomingMessage, url: URL, res: http.ServerResponse) => void;
let server: http.Server | undefined;
const requests: string[] = [];

async function serve(handler: Handler): Promise<string> {
  requests.length = 0;
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    handler(req, url, res);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  return `http://127.0.0.1:${addr.port}`;
}

afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
});

const cm = (name: string, rv: number, data = ''): ApiObject => ({
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', resourceVersion: String(rv) },
  data: { v: data },
});
const json = (res: http.ServerResponse, code: number, body: unknown) => {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};
const gone = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'too old resource version: 1 (5)',
  reason: 'Expired',
  code: 410,
};

async function* chunks(parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield new TextEncoder().encode(p);
}

describe('decodeWatchEvents', () => {
  it('splits newline-delimited events across arbitrary chunk boundaries (even inside a UTF-8 character)', async () => {
    const text = `${JSON.stringify({ type: 'ADDED', object: cm('é', 1) })}\n${JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '2' } } })}\n`;
    const bytes = new TextEncoder().encode(text);
    async function* byteChunks() {
      for (let i = 0; i < bytes.length; i += 3) yield bytes.slice(i, i + 3);
    }
    const out = [];
    for await (const ev of decodeWatchEvents(byteChunks())) out.push(ev);
    expect(out.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(out[0]?.object.metadata?.name).toBe('é');
  });
  it('rejects a line that is not an event', async () => {
    const it = decodeWatchEvents(chunks(['{"type":"ADDED","object":{}}\n', 'nope\n']));
    await it.next();
    await expect(it.next()).rejects.toMatchObject({ code: 'Decode' });
  });
});

describe('kubeconfig', () => {
  it('resolves the current context with inline data and relative files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'));
    writeFileSync(join(dir, 'ca.crt'), 'CA-PEM');
    writeFileSync(
      join(dir, 'config'),
      `apiVersion: v1
kind: Config
current-context: admin
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:6443/", certificate-authority: ca.crt}
users:
- name: u
  user: {client-certificate-data: ${Buffer.from('CERT').toString('base64')}, client-key-data: ${Buffer.from('KEY').toString('base64')}, token: t0k}
contexts:
- name: admin
  context: {cluster: c, user: u, namespace: team-a}
`,
    );
    const conn = resolveConnection(loadKubeconfig(join(dir, 'config')));
    expect(conn).toEqual({
      server: 'https://127.0.0.1:6443',
      ca: 'CA-PEM',
      cert: 'CERT',
      key: 'KEY',
      token: 't0k',
      namespace: 'team-a',
    });
  });
  it('rejects an unknown context', () => {
    const cfg = parseKubeconfig('clusters: []\ncontexts: []\nusers: []\n');
    expect(() => resolveConnection(cfg, 'x')).toThrow(/context "x" not found/);
  });
});

describe('rest client + list pager', () => {
  it('follows continue tokens and returns one snapshot', async () => {
    const url = await serve((_req, u, res) => {
      const c = u.searchParams.get('continue');
      if (!c)
        return json(res, 200, {
          kind: 'ConfigMapList',
          metadata: { resourceVersion: '9', continue: 'p2' },
          items: [cm('a', 1)],
        });
      if (c === 'p2')
        return json(res, 200, {
          kind: 'ConfigMapList',
          metadata: { resourceVersion: '9', continue: 'p3' },
          items: [cm('b', 2)],
        });
      return json(res, 200, {
        kind: 'ConfigMapList',
        metadata: { resourceVersion: '9' },
        items: [cm('c', 3)],
      });
    });
    const client = createRestClient({ server: url });
    const res = await listAll(client, '/api/v1/configmaps', { pageSize: 1, labelSelector: 'a=b' });
    expect(res.items.map((i) => i.metadata?.name)).toEqual(['a', 'b', 'c']);
    expect(res.resourceVersion).toBe('9');
    expect(requests).toEqual([
      'GET /api/v1/configmaps?labelSelector=a%3Db&limit=1',
      'GET /api/v1/configmaps?labelSelector=a%3Db&limit=1&continue=p2',
      'GET /api/v1/configmaps?labelSelector=a%3Db&limit=1&continue=p3',
    ]);
  });

  it('falls back to a full list when a continue token expires', async () => {
    const url = await serve((_req, u, res) => {
      if (u.searchParams.get('continue')) return json(res, 410, gone);
      if (u.searchParams.get('limit'))
        return json(res, 200, { metadata: { resourceVersion: '4', continue: 'x' }, items: [cm('a', 1)] });
      return json(res, 200, { metadata: { resourceVersion: '7' }, items: [cm('a', 1), cm('b', 6)] });
    });
    const res = await listAll(createRestClient({ server: url }), '/x', { pageSize: 1 });
    expect(res.items.length).toBe(2);
    expect(res.resourceVersion).toBe('7');
  });

  it('falls back to an empty version when the requested one is gone on the first page', async () => {
    const url = await serve((_req, u, res) => {
      if (u.searchParams.get('resourceVersion') === '3') return json(res, 410, gone);
      return json(res, 200, { metadata: { resourceVersion: '8' }, items: [cm('a', 1)] });
    });
    const res = await listAll(createRestClient({ server: url }), '/x', {
      resourceVersion: '3',
      resourceVersionMatch: 'NotOlderThan',
    });
    expect(res.resourceVersion).toBe('8');
    expect(requests[1]).toBe('GET /x?limit=500');
  });

  it('rejects an Exact list answered at another version', async () => {
    const url = await serve((_req, _u, res) =>
      json(res, 200, { metadata: { resourceVersion: '9' }, items: [] }),
    );
    await expect(
      listAll(createRestClient({ server: url }), '/x', {
        pageSize: 0,
        resourceVersion: '5',
        resourceVersionMatch: 'Exact',
      }),
    ).rejects.toThrow(/not the Exact 5/);
  });

  it('surfaces Status errors with code, reason and Retry-After', async () => {
    const url = await serve((_req, _u, res) => {
      res.writeHead(504, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      res.end(
        JSON.stringify({
          ...gone,
          code: 504,
          reason: 'Timeout',
          message: 'Too large resource version: 99, current: 3',
        }),
      );
    });
    const err = await createRestClient({ server: url })
      .json({ path: '/x' })
      .catch((e: unknown) => e);
    if (!isClientError(err, 'Status')) throw new Error('expected a ClientError');
    expect(err.status).toBe(504);
    expect(err.reason).toBe('Timeout');
    expect(err.retryAfterSeconds).toBe(1);
  });
});

describe('informer', () => {
  it('lists, watches, resumes from the last resourceVersion, and relists on 410', async () => {
    let watchNo = 0;
    let listNo = 0;
    const url = await serve((_req, u, res) => {
      if (u.searchParams.get('watch') !== '1') {
        listNo++;
        if (listNo === 1)
          return json(res, 200, { metadata: { resourceVersion: '3' }, items: [cm('a', 1), cm('b', 3)] });
        // After the 410: b was deleted and c created while we were away; a changed.
        return json(res, 200, {
          metadata: { resourceVersion: '20' },
          items: [cm('a', 15, 'z'), cm('c', 18)],
        });
      }
      watchNo++;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const send = (type: string, object: unknown) => res.write(`${JSON.stringify({ type, object })}\n`);
      if (watchNo === 1) {
        send('MODIFIED', cm('a', 4, 'x'));
        send('BOOKMARK', { kind: 'ConfigMap', metadata: { resourceVersion: '6' } });
        return res.end();
      }
      if (watchNo === 2) {
        send('ERROR', gone);
        return res.end();
      }
      // Third watch: after the relist; keep it open.
      send('ADDED', cm('d', 21));
    });
    const log: string[] = [];
    const inf = createInformer({
      client: createRestClient({ server: url }),
      path: '/api/v1/namespaces/default/configmaps',
      backoff: { initialMs: 1 },
      timeoutSeconds: () => 300,
      onAdd: (o) => log.push(`add ${o.metadata?.name}@${o.metadata?.resourceVersion}`),
      onUpdate: (_a, b) => log.push(`update ${b.metadata?.name}@${b.metadata?.resourceVersion}`),
      onDelete: (o) => log.push(`delete ${o.metadata?.name}`),
    });
    inf.start();
    await inf.synced();
    for (let i = 0; i < 500 && !log.includes('add d@21'); i++) await new Promise((r) => setTimeout(r, 5));
    await inf.stop();
    expect(log).toEqual([
      'add a@1',
      'add b@3',
      'update a@4',
      'update a@15',
      'add c@18',
      'delete b',
      'add d@21',
    ]);
    const watches = requests.filter((r) => r.includes('watch=1'));
    expect(watches[0]).toContain('resourceVersion=3');
    expect(watches[0]).toContain('allowWatchBookmarks=true');
    // Resumed from the bookmark's version, not the last event's.
    expect(watches[1]).toContain('resourceVersion=6');
    expect(watches[2]).toContain('resourceVersion=20');
    const lists = requests.filter((r) => !r.includes('watch=1'));
    expect(lists[0]).toContain('resourceVersion=0');
    expect(lists[1]).not.toContain('resourceVersion');
    expect(inf.stats.relistsAfterGone).toBe(1);
    expect(
      inf
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'c', 'd']);
  });

  it('relists after an HTTP 410 on the watch request', async () => {
    let lists = 0;
    let watches = 0;
    const url = await serve((_req, u, res) => {
      if (u.searchParams.get('watch') !== '1') {
        lists++;
        return json(res, 200, {
          metadata: { resourceVersion: String(lists * 10) },
          items: [cm('a', lists * 10)],
        });
      }
      watches++;
      if (watches === 1) return json(res, 410, gone);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('');
    });
    const inf = createInformer({
      client: createRestClient({ server: url }),
      path: '/x',
      backoff: { initialMs: 1 },
    });
    inf.start();
    for (let i = 0; i < 500 && watches < 2; i++) await new Promise((r) => setTimeout(r, 5));
    await inf.stop();
    expect(lists).toBe(2);
    expect(inf.resourceVersion).toBe('20');
    expect(inf.get('default/a')?.metadata?.resourceVersion).toBe('20');
  });
});
