import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSqliteFile } from '@orchard/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { startCliServer } from './helpers/cli-server.js';

/**
 * Crash safety on SQLite (issue 15, "What must be shown"): `kill -9` of the server in the middle of a
 * storm of concurrent creates and updates through HTTP; after a restart every acknowledged write
 * (2xx received) is there with the resourceVersion it was acknowledged with, or was overwritten only
 * by the one write of its key still in flight at the kill; nothing else exists or changed; the
 * database file passes SQLite's integrity check.
 */
const root = mkdtempSync(join(tmpdir(), 'orchard-crash-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cms = '/api/v1/namespaces/default/configmaps';
const workers = 24;
/** Writes per key before a worker moves to its next key: a create, then updates. */
const writesPerKey = 4;

interface KeyState {
  /** The last acknowledged write: its counter and resourceVersion. */
  acked?: { n: number; rv: string };
  /** The counter of a write sent but not answered when the server died. */
  inflight?: number;
}

describe('kill -9 during a write storm (SQLite)', () => {
  it('every acknowledged write survives with its resourceVersion; nothing else changed; the file is sound', async () => {
    const dataDir = join(root, 'data');
    const kubeconfig = join(root, 'admin.kubeconfig');
    const first = await startCliServer(['--data-dir', dataDir], kubeconfig);
    const stable = await first.request('POST', cms, { metadata: { name: 'stable' }, data: { keep: 'me' } });
    expect(stable.status).toBe(201);
    const keys = new Map<string, KeyState>();
    let stopped = false;
    let acked = 0;
    const worker = async (w: number) => {
      for (let k = 0; !stopped; k++) {
        const name = `w${w}-k${k}`;
        const state: KeyState = {};
        keys.set(name, state);
        for (let n = 0; n < writesPerKey && !stopped; n++) {
          state.inflight = n;
          const body = { metadata: { name }, data: { n: String(n) } };
          let r: Awaited<ReturnType<typeof first.request>>;
          try {
            r =
              n === 0
                ? await first.request('POST', cms, body)
                : await first.request('PUT', `${cms}/${name}`, body);
          } catch {
            return; // the connection died with the server: this write stays in flight
          }
          if (r.status !== 200 && r.status !== 201)
            throw new Error(`${name} write ${n}: ${r.status} ${r.text}`);
          state.acked = {
            n,
            rv: (r.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion,
          };
          state.inflight = undefined;
          acked++;
        }
      }
    };
    const storm = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
    // Kill once a good number of writes is acknowledged (bounded wait), with writes still in flight.
    for (let i = 0; i < 800 && acked < 600; i++) await new Promise((r) => setTimeout(r, 25));
    await first.kill9();
    stopped = true;
    await storm;
    expect(acked).toBeGreaterThan(50);

    const second = await startCliServer(['--data-dir', dataDir], kubeconfig);
    try {
      const list = await second.request('GET', cms);
      expect(list.status).toBe(200);
      const items = (
        list.json as {
          items: { metadata: { name: string; resourceVersion: string }; data?: { n?: string } }[];
        }
      ).items;
      const byName = new Map(items.map((i) => [i.metadata.name, i]));
      const problems: string[] = [];
      let inflightLanded = 0;
      for (const [name, state] of keys) {
        const got = byName.get(name);
        byName.delete(name);
        if (!state.acked) {
          // Only the create was sent: present (committed, answer lost) with n=0, or absent.
          if (got && got.data?.n !== '0')
            problems.push(`${name}: unacknowledged create stored as ${JSON.stringify(got.data)}`);
          if (got) inflightLanded++;
          continue;
        }
        if (!got) {
          problems.push(`${name}: acknowledged write ${state.acked.n} (rv ${state.acked.rv}) is missing`);
          continue;
        }
        const n = Number(got.data?.n);
        if (n === state.acked.n) {
          if (got.metadata.resourceVersion !== state.acked.rv)
            problems.push(
              `${name}: resourceVersion ${got.metadata.resourceVersion}, acknowledged ${state.acked.rv}`,
            );
        } else if (state.inflight !== undefined && n === state.inflight) {
          inflightLanded++;
          if (Number(got.metadata.resourceVersion) <= Number(state.acked.rv))
            problems.push(`${name}: in-flight write landed with an older resourceVersion`);
        } else {
          problems.push(
            `${name}: stored n=${n}, acknowledged ${state.acked.n}, in flight ${String(state.inflight)}`,
          );
        }
      }
      // The only other object is the one written before the storm, unchanged (besides the root-CA
      // ConfigMap the CLI publishes in every namespace).
      const rest = [...byName.keys()].filter((name) => !name.endsWith('root-ca.crt'));
      expect(rest).toEqual(['stable']);
      expect(byName.get('stable')).toEqual(stable.json);
      expect(problems).toEqual([]);
      // At most one write per worker can have been in flight.
      expect(inflightLanded).toBeLessThanOrEqual(workers);
      // The restarted server keeps writing above every acknowledged version.
      const maxAcked = Math.max(...[...keys.values()].map((s) => Number(s.acked?.rv ?? 0)));
      const after = await second.request('POST', cms, { metadata: { name: 'after' } });
      expect(
        Number((after.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion),
      ).toBeGreaterThan(maxAcked);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    expect(checkSqliteFile(join(dataDir, 'orchard.sqlite'))).toEqual([]);
  }, 90_000);
});
