import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startCliServer } from './helpers/cli-server.js';
import { flavorNames } from './helpers/flavors.js';

/**
 * Graceful shutdown of the CLI (issue 20 item 2): on SIGTERM the server stops accepting, open watches
 * end with a proper end of their chunked stream (the client sees EOF, not a reset), a write whose
 * body is still arriving finishes and gets its 201, every acknowledged create is in the SQLite store
 * after a restart, the WAL is checkpointed, and the exit status is 0. A second signal exits at once.
 */
const root = mkdtempSync(join(tmpdir(), 'orchard-shutdown-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Waits (bounded, 30 s) until `check` holds. */
async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function agentFor(kubeconfigPath: string): Agent {
  const kc = parse(readFileSync(kubeconfigPath, 'utf8')) as {
    clusters: { cluster: Record<string, string> }[];
    users: { user: Record<string, string> }[];
  };
  const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString();
  return new Agent({
    ca: b64(kc.clusters[0]?.cluster['certificate-authority-data']),
    cert: b64(kc.users[0]?.user['client-certificate-data']),
    key: b64(kc.users[0]?.user['client-key-data']),
    keepAlive: true,
    maxSockets: 64,
  });
}

/** A watch that records whether its chunked response ended properly ('end') or was cut ('error'/'aborted'). */
function openWatch(url: string, agent: Agent) {
  return new Promise<{ lines: string[]; outcome: Promise<'end' | 'cut'> }>((resolve, reject) => {
    const req = httpsRequest(url, { agent }, (res) => {
      const lines: string[] = [];
      let buf = '';
      res.on('data', (c: Buffer) => {
        buf += c.toString();
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          lines.push(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
      const outcome = new Promise<'end' | 'cut'>((r) => {
        res.on('end', () => r('end'));
        res.on('aborted', () => r('cut'));
        res.on('error', () => r('cut'));
        res.on('close', () => r(res.complete ? 'end' : 'cut'));
      });
      resolve({ lines, outcome });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A create whose body arrives in two parts: resolves `sent` once the server has taken the headers
 * (its `100 Continue`) and the first part; `finish()` sends the rest and resolves with the status.
 */
function slowCreate(url: string, agent: Agent, body: string) {
  const half = Math.floor(body.length / 2);
  let status: Promise<number> | undefined;
  const req = httpsRequest(url, {
    method: 'POST',
    agent,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  const sent = new Promise<void>((resolve) =>
    req.on('continue', () => {
      req.write(body.slice(0, half));
      resolve();
    }),
  );
  req.flushHeaders();
  return {
    sent,
    status,
    finish() {
      req.end(body.slice(half));
      return status as Promise<number>;
    },
  };
}

describe.each(flavorNames)('graceful shutdown of the CLI on SQLite (%s)', (flavor) => {
  const dataDir = join(root, flavor, 'data');
  const kubeconfig = join(root, flavor, 'admin.kubeconfig');
  const args = ['--flavor', flavor, '--data-dir', dataDir];
  const cms = '/api/v1/namespaces/drain/configmaps';
  const acknowledged: string[] = [];

  it('SIGTERM: the watch ends cleanly, the write in flight gets its 201, acknowledged creates are kept, exit 0', async () => {
    const api = await startCliServer(args, kubeconfig);
    const agent = agentFor(kubeconfig);
    try {
      expect((await api.request('POST', '/api/v1/namespaces', { metadata: { name: 'drain' } })).status).toBe(
        201,
      );
      const watch = await openWatch(`${api.url}${cms}?watch=true`, agent);
      const slow = slowCreate(
        `${api.url}${cms}`,
        agent,
        JSON.stringify({ metadata: { name: 'slow' }, data: { pad: 'x'.repeat(64 * 1024) } }),
      );
      await slow.sent;
      // Concurrent creates, some answered before the signal and some after it.
      let answered = 0;
      const creates = Array.from({ length: 40 }, (_, i) =>
        api.request('POST', cms, { metadata: { name: `c${i}` } }).then(
          (r) => {
            answered++;
            return { name: `c${i}`, status: r.status };
          },
          () => ({ name: `c${i}`, status: 0 }),
        ),
      );
      await until('the first creates to be answered', () => answered >= 3);
      api.child.kill('SIGTERM');
      await until('the shutdown to start', () => api.stderr().includes('received SIGTERM'));
      // The slow write was in flight when the signal came: it still finishes and is answered.
      expect(await slow.finish()).toBe(201);
      acknowledged.push('slow');
      for (const c of await Promise.all(creates)) {
        // Each create is either answered (201) or never reached the server (connection refused).
        expect([0, 201]).toContain(c.status);
        if (c.status === 201) acknowledged.push(c.name);
      }
      expect(acknowledged.length).toBeGreaterThan(1);
      // The watch saw its events and then a proper end of the stream.
      expect(await watch.outcome).toBe('end');
      for (const line of watch.lines) expect(() => JSON.parse(line)).not.toThrow();
      expect(await api.exited).toBe(0);
      expect(api.stderr()).toContain('shutdown complete');
      // The store was closed: SQLite checkpointed its write-ahead log into the database.
      const wal = join(dataDir, 'orchard.sqlite-wal');
      expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    } finally {
      agent.destroy();
      await api.kill9();
    }
  });

  it('after a restart every acknowledged create is there', async () => {
    expect(acknowledged.length).toBeGreaterThan(1);
    const api = await startCliServer(args, kubeconfig);
    try {
      const list = await api.request('GET', cms);
      expect(list.status).toBe(200);
      const names = (list.json as { items: { metadata: { name: string } }[] }).items.map(
        (i) => i.metadata.name,
      );
      for (const name of acknowledged) expect(names).toContain(name);
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });

  it('a second signal exits at once, without waiting for the write in flight', async () => {
    const api = await startCliServer(args, kubeconfig);
    const agent = agentFor(kubeconfig);
    try {
      const slow = slowCreate(`${api.url}${cms}`, agent, JSON.stringify({ metadata: { name: 'never' } }));
      slow.status.catch(() => undefined);
      await slow.sent;
      api.child.kill('SIGTERM');
      await until('the shutdown to start', () => api.stderr().includes('received SIGTERM'));
      api.child.kill('SIGINT');
      expect(await api.exited).toBe(1);
      expect(api.stderr()).toContain('received SIGINT again, exiting without waiting');
    } finally {
      agent.destroy();
      await api.kill9();
    }
  });
});
