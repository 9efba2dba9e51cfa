import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubectlWatch, spawnKubectl } from './helpers/kubectl-watch.js';

/**
 * The watch commands of ../shared/clients/kubectl-wire.md §3 with stock kubectl 1.32 under
 * `--flavor kubernetes`: `get -w` (list, then changes), `--watch-only`, `get <name> -w`,
 * `get <missing> -w`, `-A -w`, `--output-watch-events` (table and `-o json`). The 410 Expired
 * ending of `get -w` is in real-clients-410.e2e.test.ts; `delete --wait`'s informer-style watch in
 * kubectl-wire.e2e.test.ts (delete ns).
 */

describe.skipIf(!kubectlAvailable())('kubectl-wire.md §3 watch commands (kubernetes flavor)', () => {
  let api: TestServer;
  const cache = mkdtempSync(join(tmpdir(), 'orchard-kubectl-watch-'));
  const children: ChildProcess[] = [];
  const cms = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
  const create = (ns: string, name: string, data: Record<string, string> = { v: '1' }) =>
    api.request('POST', cms(ns), { body: { metadata: { name }, data } });

  function watch(...args: string[]): KubectlWatch {
    const w = spawnKubectl(args, api.kubeconfigPath, cache);
    children.push(w.child);
    return w;
  }

  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
    for (const ns of ['w1', 'w2'])
      await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    await create('w1', 'first');
    // Warm the discovery cache so every watch below starts without it.
    await kubectl(['get', 'cm', '-n', 'w1'], { kubeconfig: api.kubeconfigPath, cacheDir: cache });
  });
  afterAll(async () => {
    for (const c of children) c.kill();
    await api.stop();
    rmSync(cache, { recursive: true, force: true });
  });

  it('get cm -w prints the list, then every later change as a row (DELETED as an ordinary row)', async () => {
    const w = watch('-n', 'w1', 'get', 'cm', '-w');
    try {
      await w.until(/^first\s+1\s+\d+[smhd]/m);
      expect(w.out()).toMatch(/^NAME\s+DATA\s+AGE\n/);
      await create('w1', 'later', { a: '1', b: '2' });
      await w.until(/^later\s+2\s+/m);
      await api.request('DELETE', `${cms('w1')}/later`);
      await w.until(/^later\s+2\s+[\s\S]*^later\s+2\s+/m);
    } finally {
      w.stop();
    }
  });

  it('--watch-only prints only the changes after the list', async () => {
    const w = watch('-n', 'w1', 'get', 'cm', '--watch-only');
    try {
      // A change made before the watch opened is part of the list (not printed): keep making changes
      // until one shows; the listed objects never do.
      for (let i = 0; i < 20 && !/^only-\d+\s/m.test(w.out()); i++) {
        await create('w1', `only-${i}`);
        for (let j = 0; j < 20 && !/^only-\d+\s/m.test(w.out()); j++)
          await new Promise((r) => setTimeout(r, 50));
      }
      await w.until(/^only-\d+\s+1\s+/m);
      expect(w.out()).not.toMatch(/^first\s/m);
    } finally {
      w.stop();
    }
  });

  it('get cm <name> -w prints the object, then its changes only', async () => {
    const w = watch(
      '-n',
      'w1',
      'get',
      'cm',
      'first',
      '-w',
      '-o',
      'jsonpath={.metadata.name}={.data.v}{"\\n"}',
    );
    try {
      await w.until(/^first=1$/m);
      await create('w1', 'unrelated');
      await api.request('PATCH', `${cms('w1')}/first`, {
        body: { data: { v: '2' } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await w.until(/^first=2$/m);
      // The synthetic ADDED of the name-selected watch is dropped: the object is printed once before the change.
      expect(w.out()).toBe('first=1\nfirst=2\n');
    } finally {
      w.stop();
    }
  });

  it('get cm <missing> -w ends with NotFound and opens no watch', async () => {
    const w = watch('-n', 'w1', 'get', 'cm', 'nope', '-w');
    const { code, stderr } = await w.exit();
    expect(code).toBe(1);
    expect(stderr).toBe('Error from server (NotFound): configmaps "nope" not found\n');
  });

  it('get cm -A -w prints the NAMESPACE column and changes in every namespace', async () => {
    const w = watch('get', 'cm', '-A', '-w');
    try {
      await w.until(/^w1\s+first\s+1\s+/m);
      expect(w.out()).toMatch(/^NAMESPACE\s+NAME\s+DATA\s+AGE\n/);
      await create('w2', 'elsewhere');
      await w.until(/^w2\s+elsewhere\s+1\s+/m);
    } finally {
      w.stop();
    }
  });

  it('--output-watch-events adds the EVENT column; with -o json it prints {type, object} per event', async () => {
    const t = watch('-n', 'w2', 'get', 'cm', '-w', '--output-watch-events');
    const j = watch('-n', 'w2', 'get', 'cm', '-w', '--output-watch-events', '-o', 'json');
    try {
      await t.until(/^EVENT\s+NAME\s+DATA\s+AGE\nADDED\s+elsewhere\s+1\s+/m);
      await j.until(/^\{"type":"ADDED"/m);
      await create('w2', 'ev');
      await api.request('DELETE', `${cms('w2')}/ev`);
      await t.until(/^DELETED\s+ev\s+1\s+/m);
      expect(t.out()).toMatch(/^ADDED\s+ev\s+1\s+/m);
      await j.until(/^\{"type":"DELETED"/m);
      const events = j
        .out()
        .split('\n')
        .filter((s) => s.trim() !== '')
        .map((s) => JSON.parse(s) as { type: string; object: { kind: string; metadata: { name: string } } });
      expect(events.map((e) => `${e.type} ${e.object.kind} ${e.object.metadata.name}`)).toEqual([
        'ADDED ConfigMap elsewhere',
        'ADDED ConfigMap ev',
        'DELETED ConfigMap ev',
      ]);
    } finally {
      t.stop();
      j.stop();
    }
  });
});
