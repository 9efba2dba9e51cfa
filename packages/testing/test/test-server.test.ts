import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../src/index.js';

describe('startTestServer', () => {
  it('starts an HTTPS server with a kubeconfig, a request helper and a REST client', async () => {
    const api = await startTestServer();
    try {
      expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(api.kubeconfig).toContain('client-certificate-data');
      const r = await api.request('GET', '/api/v1/namespaces/default');
      expect(r.status).toBe(200);
      const ns = await api.client.json<{ metadata: { name: string } }>({
        method: 'GET',
        path: '/api/v1/namespaces/orch-system',
      });
      expect(ns.metadata.name).toBe('orch-system');
    } finally {
      await api.stop();
    }
  });

  it('starts servers that are independent of each other, sharing the CA', async () => {
    const [a, b] = await Promise.all([
      startTestServer({ flavor: 'kubernetes' }),
      startTestServer({ insecureHttp: true }),
    ]);
    try {
      expect(a.url).not.toBe(b.url);
      expect(b.url).toMatch(/^http:\/\//);
      await a.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'only-a' } },
      });
      expect((await a.request('GET', '/api/v1/namespaces/default/configmaps/only-a')).status).toBe(200);
      expect((await b.request('GET', '/api/v1/namespaces/default/configmaps/only-a')).status).toBe(404);
      expect((await a.request('GET', '/api/v1/namespaces/kube-system')).status).toBe(200);
      const c = await startTestServer();
      expect(c.tls?.ca.cert).toBe(a.tls?.ca.cert);
      await c.stop();
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('writes its kubeconfig file when first asked for it (a start makes no temp dir) and removes it on stop()', async () => {
    const dirs = () => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('orchard-test-')));
    const api = await startTestServer({ insecureHttp: true });
    let path: string | undefined;
    try {
      const before = dirs();
      path = api.kubeconfigPath;
      expect(readFileSync(path, 'utf8')).toBe(api.kubeconfig);
      expect(api.kubeconfigPath).toBe(path);
      expect(dirs().has(dirname(path).split('/').at(-1)!)).toBe(true);
      expect(before.has(dirname(path).split('/').at(-1)!)).toBe(false);
    } finally {
      await api.stop();
    }
    expect(existsSync(dirname(path))).toBe(false);
    expect(api.kubeconfigPath).toBe(path);
    // Never read while running: nothing to write into once the server is gone.
    const unread = await startTestServer({ insecureHttp: true });
    await unread.stop();
    expect(() => unread.kubeconfigPath).toThrow(/after stop/);
    await expect(unread.kubeconfigFor({ username: 'u' })).rejects.toThrow(/after stop/);
  });

  it('passes server options through', async () => {
    const api = await startTestServer({ insecureHttp: true, server: { createDefaultNamespaces: false } });
    try {
      const r = await api.request('GET', '/api/v1/namespaces');
      expect((r.json as { items: unknown[] }).items).toEqual([]);
    } finally {
      await api.stop();
    }
  });
});
