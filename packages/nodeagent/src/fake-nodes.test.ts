import type { RequestOptions, RestClient } from '@orchard/client';
import { orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { parseFakeNodeCount } from './cli.js';
import { fakeNodeMachine, impersonatingClient, startFakeNodes } from './fake-nodes.js';

/** A client that records requests and answers every one with an error (no server needed). */
function recordingClient(): RestClient & { seen: RequestOptions[] } {
  const seen: RequestOptions[] = [];
  const fail = async (o: RequestOptions): Promise<never> => {
    seen.push(o);
    throw new Error('offline');
  };
  return { connection: { server: 'https://127.0.0.1:1' }, seen, raw: fail, json: fail, stream: fail };
}

describe('impersonatingClient', () => {
  it('adds Impersonate-User and Impersonate-Group to every request, keeping the caller headers', async () => {
    const base = recordingClient();
    const c = impersonatingClient(base, 'system:node:a', ['system:nodes']);
    await expect(c.json({ path: '/x', headers: { Accept: 'application/json' } })).rejects.toThrow('offline');
    await expect(c.raw({ path: '/y' })).rejects.toThrow('offline');
    await expect(c.stream({ path: '/z' })).rejects.toThrow('offline');
    for (const o of base.seen)
      expect(o.headers).toMatchObject({
        'Impersonate-User': 'system:node:a',
        'Impersonate-Group': 'system:nodes',
      });
    expect(base.seen[0]?.headers?.Accept).toBe('application/json');
    expect(c.connection).toBe(base.connection);
  });

  it('refuses more than one group (one header value)', () => {
    expect(() => impersonatingClient(recordingClient(), 'u', ['a', 'b'])).toThrow(/at most one group/);
  });
});

describe('fakeNodeMachine', () => {
  it('gives each index its own address and identifiers, healthy signals', () => {
    const a = fakeNodeMachine('n-0', 0).info();
    const b = fakeNodeMachine('n-70000', 70_000).info();
    expect(a.addresses).toEqual([{ type: 'InternalIP', address: '10.128.0.0' }]);
    expect(b.addresses).toEqual([{ type: 'InternalIP', address: '10.129.17.112' }]);
    expect(a.machineID).not.toBe(b.machineID);
    expect(b.hostname).toBe('n-70000');
    const s = fakeNodeMachine('n', 1).signals();
    expect(s.memoryAvailableBytes / s.memoryTotalBytes).toBeGreaterThan(0.5);
    expect(s.networkReady).toBe(true);
  });
});

describe('--fake-nodes', () => {
  it.each(['1', '20', '100000'])('accepts %s', (v) => {
    expect(parseFakeNodeCount(v)).toBe(Number(v));
  });
  it.each(['0', '-1', '1.5', '1e3', '100001', '', ' 3', 'ten', '0x10'])('refuses %j naming the flag', (v) => {
    expect(() => parseFakeNodeCount(v)).toThrow(/^--fake-nodes: /);
  });
});

describe('startFakeNodes', () => {
  it('names nodes <prefix><i>, refuses a bad count, and stops cleanly before any node started', async () => {
    expect(() => startFakeNodes({ client: recordingClient(), flavor: orchFlavor, count: 0 })).toThrow(
      /count/,
    );
    const client = recordingClient();
    const fake = startFakeNodes({
      client,
      flavor: orchFlavor,
      count: 3,
      prefix: 'x-',
      startJitterMs: 60_000,
    });
    expect(fake.names).toEqual(['x-0', 'x-1', 'x-2']);
    await fake.stop();
    expect(client.seen).toEqual([]); // the jittered starts were cancelled: no node ever ran
  });

  it('starts each node as its own identity', async () => {
    const client = recordingClient();
    const fake = startFakeNodes({
      client,
      flavor: orchFlavor,
      count: 2,
      startJitterMs: 1,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    const deadline = Date.now() + 10_000;
    while (new Set(client.seen.map((o) => o.headers?.['Impersonate-User'])).size < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    await fake.stop();
    expect(new Set(client.seen.map((o) => o.headers?.['Impersonate-User']))).toEqual(
      new Set(['system:node:fake-node-0', 'system:node:fake-node-1']),
    );
  });
});
