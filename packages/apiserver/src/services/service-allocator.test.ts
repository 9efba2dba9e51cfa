import { isApiError } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../storage/object-store.js';
import { DirectTaker, Reservation } from './allocation-taker.js';
import { ipStaticBand, parsePortRange, parseServiceIpRange, portStaticBand } from './ip-range.js';
import { StoredRange } from './range-allocator.js';
import { ServiceAllocator, serviceIpsKey } from './service-allocator.js';
import { ensureKubernetesService, repairServiceAllocations } from './service-repair.js';

type Svc = { metadata: { name: string; namespace: string }; spec: Record<string, unknown> };

function setup(ipRange = '10.0.0.0/29', portRange = '30000-30002') {
  const objects = new ObjectStore(createMemoryStore());
  const allocator = new ServiceAllocator({
    objects,
    ipRange: parseServiceIpRange(ipRange),
    portRange: parsePortRange(portRange),
    random: () => 0,
  });
  void allocator.start(async () => {});
  const store = async (s: Svc) =>
    objects.create(
      objects.key({ group: '', resource: 'services', namespace: s.metadata.namespace }, s.metadata.name),
      s,
    );
  return { objects, allocator, store };
}

const svc = (name: string, spec: Record<string, unknown> = {}): Svc => ({
  metadata: { name, namespace: 'ns' },
  spec: { type: 'ClusterIP', ports: [{ port: 80, protocol: 'TCP' }], ...spec },
});

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return { code: e.code, message: e.message, causes: e.details?.causes };
    throw e;
  }
  throw new Error('expected a failure');
}

describe('ServiceAllocator', () => {
  it('hands out cluster IPs past the reserved first one and fills the family fields', async () => {
    const { allocator } = setup();
    const s = svc('a');
    await allocator.allocateNew(s, 'a', false);
    expect(s.spec).toMatchObject({
      clusterIP: '10.0.0.2',
      clusterIPs: ['10.0.0.2'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    expect(await allocator.ips.taken()).toEqual([1]);
  });

  it('takes automatic values above the static band first, and from the band only when the rest is full', async () => {
    // A /27 holds 32 addresses: the band is 16 (offsets 0-15), 14 offsets lie above it.
    const { allocator } = setup('10.0.0.0/27', '30000-30031');
    const ips: string[] = [];
    const ports: number[] = [];
    for (let i = 0; i < 15; i++) {
      const s = svc(`s${i}`, { type: 'NodePort' }) as Svc & {
        spec: { clusterIP: string; ports: { nodePort: number }[] };
      };
      await allocator.allocateNew(s, `s${i}`, false);
      ips.push(s.spec.clusterIP);
      ports.push(s.spec.ports[0]?.nodePort ?? 0);
    }
    const lastOctets = ips.map((ip) => Number(ip.split('.')[3]));
    // Fourteen from 10.0.0.17-30 in order (random start 0), then the band's first free one past
    // the reserved 10.0.0.1.
    expect(lastOctets).toEqual([17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 2]);
    // Ports: 32 in the range, band 16: 30016-30031, then 30000.
    expect(ports.slice(0, 16 - 1)).toEqual([...Array.from({ length: 15 }, (_, i) => 30016 + i)]);
  });

  it('sizes the static band as upstream: min(max(16, size/step), cap), none for 16 or fewer', () => {
    expect(ipStaticBand(parseServiceIpRange('10.0.0.0/24'))).toBe(16);
    expect(ipStaticBand(parseServiceIpRange('10.0.0.0/16'))).toBe(256);
    expect(ipStaticBand(parseServiceIpRange('10.0.0.0/20'))).toBe(256);
    expect(ipStaticBand(parseServiceIpRange('10.0.0.0/21'))).toBe(128);
    expect(ipStaticBand(parseServiceIpRange('10.0.0.0/28'))).toBe(0);
    expect(ipStaticBand(parseServiceIpRange('fd00::/108'))).toBe(256);
    expect(portStaticBand(parsePortRange('30000-32767'))).toBe(86);
    expect(portStaticBand(parsePortRange('1-65535'))).toBe(128);
    expect(portStaticBand(parsePortRange('30000-30015'))).toBe(0);
  });

  it('honours a requested IP and refuses a taken or out-of-range one with upstream messages', async () => {
    const { allocator } = setup();
    await allocator.allocateNew(svc('a', { clusterIP: '10.0.0.1' }), 'a', false);
    const taken = await failure(allocator.allocateNew(svc('b', { clusterIP: '10.0.0.1' }), 'b', false));
    expect(taken).toMatchObject({
      code: 422,
      message:
        'Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.1"}: failed to allocate IP 10.0.0.1: provided IP is already allocated',
    });
    const outside = await failure(allocator.allocateNew(svc('c', { clusterIP: '10.1.0.1' }), 'c', false));
    expect(outside.message).toContain(
      'failed to allocate IP 10.1.0.1: the provided IP (10.1.0.1) is not in the valid range. The range of valid IPs is 10.0.0.0/29',
    );
    const bad = await failure(allocator.allocateNew(svc('d', { clusterIP: 'x' }), 'd', false));
    expect(bad.causes?.[0]?.field).toBe('spec.clusterIPs[0]');
  });

  it('answers 500 "range is full" when exhausted, and gives nothing for headless or ExternalName', async () => {
    const { allocator } = setup();
    // /29: six addresses, the first kept for the kubernetes Service.
    for (const n of ['a', 'b', 'c', 'd', 'e']) await allocator.allocateNew(svc(n), n, false);
    const full = await failure(allocator.allocateNew(svc('f'), 'f', false));
    expect(full).toMatchObject({
      code: 500,
      message: 'Internal error occurred: failed to allocate a serviceIP: range is full',
    });
    const headless = svc('h', { clusterIP: 'None' });
    await allocator.allocateNew(headless, 'h', false);
    expect(headless.spec.clusterIPs).toEqual(['None']);
    const external = svc('x', { type: 'ExternalName', externalName: 'example.com' });
    await allocator.allocateNew(external, 'x', false);
    expect(external.spec.clusterIP).toBeUndefined();
  });

  it('allocates node ports, refuses taken and out-of-range ones, and undoes what it took', async () => {
    const { allocator } = setup();
    const np = svc('a', {
      type: 'NodePort',
      ports: [
        { name: 'a', port: 80 },
        { name: 'b', port: 81 },
      ],
    });
    const undo = await allocator.allocateNew(np, 'a', false);
    expect((np.spec.ports as { nodePort: number }[]).map((p) => p.nodePort)).toEqual([30000, 30001]);
    const taken = await failure(
      allocator.allocateNew(
        svc('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30001 }] }),
        'b',
        false,
      ),
    );
    expect(taken.message).toBe(
      'Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30001: provided port is already allocated',
    );
    const outside = await failure(
      allocator.allocateNew(
        svc('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }),
        'c',
        false,
      ),
    );
    expect(outside.message).toContain(
      'provided port is not in the valid range. The range of valid ports is 30000-30002',
    );
    const three = svc('d', {
      type: 'NodePort',
      ports: [
        { name: 'a', port: 1 },
        { name: 'b', port: 2 },
      ],
    });
    expect((await failure(allocator.allocateNew(three, 'd', false))).message).toBe(
      'Internal error occurred: failed to allocate a nodePort: range is full',
    );
    // The failed create gave back its one port: 30002 is free again.
    expect(await allocator.ports.taken()).toEqual([0, 1]);
    await undo();
    expect(await allocator.ports.taken()).toEqual([]);
    expect(await allocator.ips.taken()).toEqual([]);
  });

  it('keeps values across an update and allocates what a type change adds', async () => {
    const { allocator } = setup();
    const s = svc('a');
    await allocator.allocateNew(s, 'a', false);
    const old = structuredClone(s);
    const next = svc('a', { type: 'NodePort' });
    await allocator.allocate(next, 'a', old, new DirectTaker(false));
    expect(next.spec.clusterIP).toBe(s.spec.clusterIP);
    expect((next.spec.ports as { nodePort: number }[])[0]?.nodePort).toBe(30000);
    const moved = await failure(
      allocator.allocate(svc('a', { clusterIP: '10.0.0.6' }), 'a', old, new DirectTaker(false)),
    );
    expect(moved.message).toContain('spec.clusterIPs[0]: Invalid value: "10.0.0.6": may not change once set');
  });

  it('an update takes what it adds through a reservation filled between passes', async () => {
    const { allocator } = setup();
    const old = svc('a');
    await allocator.allocateNew(old, 'a', false);
    const reservation = new Reservation();
    const pass = async () => {
      const next = svc('a', {
        type: 'NodePort',
        ports: [
          { name: 'x', port: 80, nodePort: 30002 },
          { name: 'y', port: 81 },
        ],
      });
      const taker = reservation.taker();
      await allocator.allocate(next, 'a', old, taker);
      return { next, missing: taker.missing(), taker };
    };
    const first = await pass();
    expect(first.missing).toBe(true);
    expect(await allocator.ports.taken()).toEqual([]);
    await reservation.fill();
    const second = await pass();
    expect(second.missing).toBe(false);
    second.taker.finishPass();
    expect((second.next.spec.ports as { nodePort: number }[]).map((p) => p.nodePort)).toEqual([30002, 30000]);
    await reservation.finish(true);
    expect(await allocator.ports.taken()).toEqual([0, 2]);
    const refused = new Reservation();
    refused.taker();
    const t = refused.taker();
    await allocator.allocate(
      svc('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30002 }] }),
      'b',
      undefined,
      t,
    );
    expect(t.missing()).toBe(true);
    expect((await failure(refused.fill())).message).toContain('provided port is already allocated');
    await refused.finish(false);
    expect(await allocator.ports.taken()).toEqual([0, 2]);
  });

  it('dry-run checks without taking', async () => {
    const { allocator } = setup();
    const s = svc('a', { type: 'NodePort' });
    await allocator.allocateNew(s, 'a', true);
    expect(s.spec.clusterIP).toBe('10.0.0.2');
    expect(await allocator.ips.taken()).toEqual([]);
    expect(await allocator.ports.taken()).toEqual([]);
  });
});

describe('repairServiceAllocations', () => {
  it('rebuilds lost records from the stored Services and frees a leak only on its second sighting', async () => {
    const { allocator, objects, store } = setup();
    const a = svc('a', { type: 'NodePort' });
    await allocator.allocateNew(a, 'a', false);
    await store(a);
    const leaked = svc('leak');
    await allocator.allocateNew(leaked, 'leak', false); // never stored: a crash in between
    await objects.delete(serviceIpsKey); // the record is lost
    const first = await repairServiceAllocations(allocator, objects);
    expect(await allocator.ips.taken()).toEqual([1]);
    expect(first.leaks.ports.size).toBe(0);
    // A leak: a port taken that no Service holds.
    await allocator.ports.allocate(2);
    const second = await repairServiceAllocations(allocator, objects, first.leaks);
    expect([...second.leaks.ports]).toEqual([2]);
    expect(await allocator.ports.taken()).toEqual([0, 2]);
    await repairServiceAllocations(allocator, objects, second.leaks);
    expect(await allocator.ports.taken()).toEqual([0]);
  });

  it('replaces a record of another range (the flag changed) and reports Services outside it', async () => {
    const { allocator, objects, store } = setup();
    const a = svc('a');
    await allocator.allocateNew(a, 'a', false);
    await store(a);
    const other = setup('10.9.0.0/29');
    await other.allocator.ips.allocate(3);
    await objects.update(serviceIpsKey, (cur) => ({ ...cur, range: '10.9.0.0/29' }));
    const r = await repairServiceAllocations(allocator, objects);
    expect(await allocator.ips.taken()).toEqual([1]);
    expect(r.outside).toEqual([]);
    const narrow = new ServiceAllocator({
      objects,
      ipRange: parseServiceIpRange('10.0.0.4/30'),
      portRange: parsePortRange('30000-30002'),
    });
    expect((await repairServiceAllocations(narrow, objects)).outside).toEqual(['ns/a cluster IP 10.0.0.2']);
  });

  it('creates the kubernetes Service with the first IP', async () => {
    const { allocator, objects } = setup();
    await ensureKubernetesService(allocator, objects);
    const { object } = await objects.get('/core/services/default/kubernetes');
    expect(object?.spec).toMatchObject({ clusterIP: '10.0.0.1', ports: [{ port: 443, name: 'https' }] });
    await ensureKubernetesService(allocator, objects);
    expect(await allocator.ips.taken()).toEqual([0]);
  });
});

describe('StoredRange.taken', () => {
  const range = (size: number) =>
    new StoredRange({
      objects: new ObjectStore(createMemoryStore()),
      key: '/ranges/test',
      range: 'test',
      size,
      allocatedMessage: 'taken',
    });

  it('lists the taken offsets in order across byte boundaries, none of an empty record', async () => {
    const r = range(21);
    expect(await r.taken()).toEqual([]);
    for (const o of [20, 0, 7, 8, 15, 16, 9]) await r.allocate(o);
    expect(await r.taken()).toEqual([0, 7, 8, 9, 15, 16, 20]);
    await r.release([8]);
    expect(await r.taken()).toEqual([0, 7, 9, 15, 16, 20]);
  });

  it('walks a range of a million offsets by its bytes', async () => {
    const r = range(1 << 20);
    for (const o of [3, (1 << 20) - 1, 500_000]) await r.allocate(o);
    expect(await r.taken()).toEqual([3, 500_000, (1 << 20) - 1]);
  });
});
