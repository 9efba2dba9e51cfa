import { connect, createServer, type Server, type Socket } from 'node:net';
import { type FlavorName, flavorByName } from '@orchard/meta';
import { startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HeartbeatEvent, type NodeAgent, startNodeAgent } from '../src/index.js';
import { fakeMachine, nodeClient } from './helpers.js';

/**
 * An API outage and a stopped agent (issue 17 items 1 and 3), both flavors: the agent reaches the
 * server through a TCP proxy the test closes for about 13 s; its Lease retries follow 200 ms doubling
 * to 7 s (the schedule and the measured gaps are printed); the node lifecycle controller marks the
 * node Unknown meanwhile; when the proxy is back the Lease is renewed again, Ready is posted True again
 * and a condition that changed meanwhile is posted. A stopped agent's node turns Ready=Unknown once the
 * node lifecycle controller's grace period (3 s here) passes.
 */
type Obj = Record<string, any>;

/** A TCP forwarder to `port` that can be cut (listener closed, connections reset) and restored. */
function tcpProxy(port: number) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let listenPort = 0;
  const listen = () =>
    new Promise<number>((resolve) => {
      const srv = createServer((client) => {
        const upstream = connect(port, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server = srv;
      srv.listen(listenPort, '127.0.0.1', () => {
        listenPort = (srv.address() as { port: number }).port;
        resolve(listenPort);
      });
    });
  return {
    listen,
    cut: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    },
  };
}

describe.each(['orch', 'kubernetes'] as const)('an API outage (%s flavor)', (name: FlavorName) => {
  const flavor = flavorByName(name);
  const lease = `/apis/${flavor.group('coordination')}/v1/namespaces/${flavor.nodeLeaseNamespace}/leases/n1`;
  let api: TestServer;
  let agent: NodeAgent | undefined;
  let proxy: ReturnType<typeof tcpProxy>;
  const machine = fakeMachine('n1');
  const events: (HeartbeatEvent & { t: number })[] = [];
  const get = async (path: string): Promise<Obj> => (await api.request('GET', path)).json as Obj;
  const condition = async (type: string): Promise<Obj | undefined> =>
    ((await get('/api/v1/nodes/n1')).status?.conditions ?? []).find((c: Obj) => c.type === type);

  beforeAll(async () => {
    api = await startTestServer({
      flavor: name,
      server: { nodeLifecycle: { gracePeriodMs: 3_000, monitorPeriodMs: 200 } },
    });
    proxy = tcpProxy(Number(new URL(api.url).port));
    const port = await proxy.listen();
    agent = startNodeAgent({
      client: await nodeClient(api, 'n1', `https://127.0.0.1:${port}`),
      flavor,
      nodeName: 'n1',
      machine,
      leaseRenewIntervalMs: 200,
      statusUpdateFrequencyMs: 300,
      requestTimeoutMs: 2_000,
      onEvent: (e) => events.push({ ...e, t: performance.now() }),
    });
    await agent.registered;
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
    await proxy?.cut();
    await api?.stop();
  });

  it('retries the Lease with 200 ms → 7 s backoff during the outage and catches up after it', async () => {
    const renewed = await waitFor('a first renewal', async () => {
      const l = await get(lease);
      return l.spec?.renewTime;
    });
    await proxy.cut();
    const outageStart = events.length;
    // Meanwhile memory runs low: the agent must post it once the server is reachable again.
    machine.set({ memoryAvailableBytes: 10 * 1024 * 1024 });
    // Seven failures (about 12.6 s): the seventh delay reaches the 7 s cap. Longer than the 3 s grace,
    // so the node lifecycle controller marks the node Unknown meanwhile.
    await waitFor(
      'seven Lease retries',
      () => events.slice(outageStart).filter((e) => e.loop === 'lease' && e.type === 'retry').length >= 7,
      60_000,
    );
    await waitFor(
      'Ready=Unknown during the outage',
      async () => (await condition('Ready'))?.status === 'Unknown',
      30_000,
    );
    await proxy.listen();
    await waitFor(
      'a renewal after the outage',
      async () => (await get(lease)).spec.renewTime > renewed,
      30_000,
    );
    const pressure = await waitFor(
      'MemoryPressure=True posted after the outage',
      async () => {
        const c = await condition('MemoryPressure');
        return c?.status === 'True' ? c : undefined;
      },
      30_000,
    );
    expect(pressure.reason).toMatch(/HasInsufficientMemory$/);
    // The agent finds the server's Unknown differs from what it sees and posts Ready=True again.
    expect((await condition('Ready'))?.status).toBe('True');

    const retries = events
      .slice(outageStart)
      .filter(
        (e): e is HeartbeatEvent & { type: 'retry'; t: number } => e.loop === 'lease' && e.type === 'retry',
      );
    const schedule = retries.map((e) => e.delayMs);
    // The schedule: each delay doubles from 200 ms, capped at 7 s.
    expect(schedule.slice(0, 7)).toEqual([200, 400, 800, 1600, 3200, 6400, 7000]);
    schedule.forEach((d, i) => {
      expect(d).toBe(Math.min(200 * 2 ** i, 7_000));
    });
    const gaps = retries.slice(1).map((e, i) => Math.round(e.t - (retries[i]?.t ?? 0)));
    console.log(
      `[${name}] Lease retry schedule during the outage (ms): ${schedule.join(', ')}; measured gaps between failed attempts (ms): ${gaps.join(', ')}`,
    );
    // After the outage the backoff starts again from 200 ms.
    const after = events
      .slice(outageStart + retries.length)
      .find((e) => e.loop === 'lease' && e.type === 'ok');
    expect(after).toBeDefined();
    machine.set({ memoryAvailableBytes: 3 * 1024 * 1024 * 1024 });
  }, 90_000);

  it('a stopped agent’s node turns Ready=Unknown after the grace period', async () => {
    await waitFor('Ready=True', async () => (await condition('Ready'))?.status === 'True', 30_000);
    await agent?.stop();
    agent = undefined;
    const ready = await waitFor(
      'Ready=Unknown',
      async () => {
        const c = await condition('Ready');
        return c?.status === 'Unknown' ? c : undefined;
      },
      30_000,
    );
    expect(ready.reason).toBe('NodeStatusUnknown');
    expect((await condition('MemoryPressure'))?.status).toBe('Unknown');
  }, 60_000);
});
