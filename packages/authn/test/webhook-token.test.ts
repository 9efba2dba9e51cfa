import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubernetesFlavor } from '@orchard/meta';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBearerTokenAuthenticator,
  createWebhookTokenAuthenticator,
  isAuthnError,
  loadWebhookKubeconfig,
  type TokenAuthenticator,
} from '../src/index.js';
import { generateTestTls, type TestTls } from './helpers/tls.js';

// The remote token service: answers by token, records what it was sent.
type Handler = (review: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;
const answers: Record<string, Handler> = {};
const seen: { body: Record<string, unknown>; authorization?: string; clientCn?: string }[] = [];
let tls: TestTls;
let server: Server;
let url: string;
let dir: string;
let kubeconfigPath: string;

function reply(status: Record<string, unknown>, code = 200, kind = 'TokenReview'): Handler {
  return (review, _req, res) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind, status }));
  };
}

beforeAll(async () => {
  tls = generateTestTls();
  answers.good = reply({
    authenticated: true,
    user: { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { 'example.com/team': ['a', 'b'] } },
  });
  answers.no = reply({ authenticated: false });
  answers.noWithError = reply({ authenticated: false, error: 'token revoked' });
  answers.http500 = reply({ authenticated: true, user: { username: 'x' } }, 500);
  answers.notJson = (_r, _q, res) => res.end('{"kind": "TokenReview", "status": ');
  answers.wrongKind = reply({ authenticated: true, user: { username: 'x' } }, 200, 'Status');
  answers.noUser = reply({ authenticated: true });
  answers.emptyUsername = reply({ authenticated: true, user: { username: '' } });
  answers.badGroups = reply({ authenticated: true, user: { username: 'x', groups: 'dev' } });
  answers.badExtra = reply({ authenticated: true, user: { username: 'x', extra: { k: 'v' } } });
  answers.protoExtra = (review, _q, res) =>
    res.end(
      `{"apiVersion":"${review.apiVersion}","kind":"TokenReview","status":{"authenticated":true,"user":{"username":"p","extra":{"__proto__":["x"],"constructor":["y"]}}}}`,
    );
  answers.hang = () => {
    // never answers: the client's timeout must end it
  };
  answers.huge = (_r, _q, res) => {
    res.write('{"kind":"TokenReview","status":{"authenticated":true,"user":{"username":"');
    res.end(`${'x'.repeat(2 << 20)}"}}}`);
  };
  answers.otherAudience = reply({ authenticated: true, user: { username: 'x' }, audiences: ['elsewhere'] });
  answers.sameAudience = reply({
    authenticated: true,
    user: { username: 'x' },
    audiences: ['api', 'elsewhere'],
  });
  server = createServer(
    { key: tls.serverKey, cert: tls.serverCert, ca: tls.ca, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
        seen.push({ body, authorization: req.headers.authorization, clientCn: String(peer?.subject?.CN) });
        const token = (body.spec as { token: string }).token;
        const h = answers[token.split('-')[0]!];
        if (h) h(body, req, res);
        else reply({ authenticated: false })(body, req, res);
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authenticate`;
  dir = mkdtempSync(join(tmpdir(), 'authn-webhook-'));
  writeFileSync(join(dir, 'ca.crt'), tls.ca);
  writeFileSync(join(dir, 'client.crt'), tls.clientCert);
  writeFileSync(join(dir, 'client.key'), tls.clientKey);
  kubeconfigPath = join(dir, 'webhook.kubeconfig');
  writeFileSync(
    kubeconfigPath,
    `apiVersion: v1
kind: Config
clusters:
- name: remote
  cluster:
    server: ${url}
    certificate-authority: ca.crt
users:
- name: apiserver
  user:
    client-certificate: client.crt
    client-key: client.key
    token: shared-secret
contexts:
- name: webhook
  context: {cluster: remote, user: apiserver}
current-context: webhook
`,
  );
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function outcome(a: TokenAuthenticator, token: string) {
  try {
    const r = await a.authenticateToken(token);
    return r.kind === 'user' ? r.user : 'none';
  } catch (e) {
    expect(isAuthnError(e, 'Unauthorized')).toBe(true);
    expect((e as Error).message).toBe('Unauthorized');
    return 'Unauthorized';
  }
}

function webhook(over: Partial<Parameters<typeof createWebhookTokenAuthenticator>[0]> = {}) {
  return createWebhookTokenAuthenticator({
    connection: loadWebhookKubeconfig(kubeconfigPath),
    cacheTtlMs: 0,
    timeoutMs: 1_000,
    ...over,
  });
}

describe('webhook token authentication against a local HTTPS service', () => {
  const rows: [string, string, unknown][] = [
    [
      'authenticated',
      'good-1',
      { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { 'example.com/team': ['a', 'b'] } },
    ],
    ['not authenticated: no opinion', 'no-1', 'none'],
    ['not authenticated with an error', 'noWithError-1', 'Unauthorized'],
    ['HTTP 500', 'http500-1', 'Unauthorized'],
    ['not JSON', 'notJson-1', 'Unauthorized'],
    ['wrong kind', 'wrongKind-1', 'Unauthorized'],
    ['no user', 'noUser-1', 'Unauthorized'],
    ['empty username', 'emptyUsername-1', 'Unauthorized'],
    ['groups not a list', 'badGroups-1', 'Unauthorized'],
    ['extra values not lists', 'badExtra-1', 'Unauthorized'],
    ['timeout', 'hang-1', 'Unauthorized'],
    ['answer over 1 MiB', 'huge-1', 'Unauthorized'],
  ];
  for (const [name, token, expected] of rows) {
    it(name, async () => {
      expect(await outcome(webhook(), token)).toEqual(expected);
    });
  }

  it('__proto__ and constructor extra keys are plain keys', async () => {
    const u = (await outcome(webhook(), 'protoExtra-1')) as unknown as { extra: Record<string, string[]> };
    expect(Object.getPrototypeOf(u.extra)).toBe(Object.prototype);
    expect(Object.hasOwn(u.extra, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(u.extra, '__proto__')?.value).toEqual(['x']);
  });

  it('POSTs a v1 TokenReview with the token, over the kubeconfig client certificate and bearer token', async () => {
    seen.length = 0;
    await outcome(webhook({ flavor: kubernetesFlavor, audiences: ['api'] }), 'good-2');
    expect(seen[0]!.body).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'good-2', audiences: ['api'] },
    });
    expect(seen[0]!.authorization).toBe('Bearer shared-secret');
    expect(seen[0]!.clientCn).toBe('webhook-client');
    await outcome(webhook({ version: 'v1beta1' }), 'good-3');
    expect(seen[1]!.body.apiVersion).toBe('authentication.orch.io/v1beta1');
  });

  it('audiences: an answer must share one with the API server', async () => {
    expect(await outcome(webhook({ audiences: ['api'] }), 'otherAudience-1')).toBe('Unauthorized');
    const a = webhook({ audiences: ['api'] });
    const r = await a.authenticateToken('sameAudience-1');
    expect(r.kind === 'user' && r.audiences).toEqual(['api']);
  });

  it('caches answers for the TTL, not failures to get one', async () => {
    let clock = 1_000_000;
    const a = webhook({ cacheTtlMs: 120_000, now: () => clock });
    seen.length = 0;
    await outcome(a, 'good-cache');
    await outcome(a, 'good-cache');
    expect(await outcome(a, 'noWithError-cache')).toBe('Unauthorized');
    expect(await outcome(a, 'noWithError-cache')).toBe('Unauthorized');
    expect(await outcome(a, 'http500-cache')).toBe('Unauthorized');
    expect(await outcome(a, 'http500-cache')).toBe('Unauthorized');
    expect(seen.map((s) => (s.body.spec as { token: string }).token)).toEqual([
      'good-cache',
      'noWithError-cache',
      'http500-cache',
      'http500-cache',
    ]);
    clock += 120_001;
    await outcome(a, 'good-cache');
    expect(seen).toHaveLength(5);
  });

  it('an untrusted server certificate fails (401), as does an unreachable server', async () => {
    const conn = loadWebhookKubeconfig(kubeconfigPath);
    const { ca: _ca, ...noCa } = conn;
    expect(await outcome(webhook({ connection: noCa }), 'good-4')).toBe('Unauthorized');
    expect(await outcome(webhook({ connection: { server: 'https://127.0.0.1:1/x' } }), 'good-4')).toBe(
      'Unauthorized',
    );
  });

  it('behind the bearer-token union a "no" is a 401', async () => {
    const union = createBearerTokenAuthenticator([webhook()]);
    await expect(
      union.authenticate({ headers: { authorization: 'Bearer no-2' }, path: '/' }),
    ).rejects.toThrow('Unauthorized');
  });
});

describe('webhook kubeconfig errors name the file and field', () => {
  const rows: [string, string, string][] = [
    ['not YAML', 'a: [', 'not valid YAML'],
    ['no cluster', 'users: []\n', 'clusters: Required value'],
    ['no server', 'clusters:\n- name: a\n  cluster: {}\n', 'clusters[].cluster.server: Required value'],
    ['bad server', 'clusters:\n- name: a\n  cluster: {server: "ftp://x"}\n', 'must be an http(s) URL'],
    [
      'missing CA file',
      'clusters:\n- name: a\n  cluster: {server: "https://x", certificate-authority: nope.crt}\n',
      'clusters[].cluster.certificate-authority: cannot read',
    ],
    ['clusters not a list', 'clusters: {a: 1}\n', 'clusters: must be a list'],
  ];
  for (const [name, text, message] of rows) {
    it(name, () => {
      const p = join(dir, `${name.replace(/\W/g, '_')}.kubeconfig`);
      writeFileSync(p, text);
      expect(() => loadWebhookKubeconfig(p)).toThrow(`${p}: `);
      expect(() => loadWebhookKubeconfig(p)).toThrow(message);
    });
  }
});
