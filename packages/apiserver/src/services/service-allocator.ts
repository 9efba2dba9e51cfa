import { errors, fieldErrors, type StatusCause } from '@orchard/meta';
import { isJsonObject, jsonEqual } from '@orchard/meta/internal';
import type { ObjectStore } from '../storage/object-store.js';
import { DirectTaker, type Taker } from './allocation-taker.js';
import {
  formatIp,
  formatPortRange,
  type IpFamily,
  ipStaticBand,
  type PortRange,
  parseIp,
  portStaticBand,
  type ServiceIpRange,
} from './ip-range.js';
import { StoredRange } from './range-allocator.js';

type Obj = Record<string, unknown>;

/** The store keys of the two allocation records (upstream's etcd keys under `/registry`). */
export const serviceIpsKey = '/ranges/serviceips';
export const serviceNodePortsKey = '/ranges/servicenodeports';

/** The cluster IPs and node ports one Service holds. */
export interface HeldValues {
  readonly ips: readonly string[];
  readonly ports: readonly number[];
}

/** What `createServiceAllocator` needs. */
export interface ServiceAllocatorOptions {
  readonly objects: ObjectStore;
  readonly ipRange: ServiceIpRange;
  readonly portRange: PortRange;
  /** Random source in [0, 1) where the search for a free value starts; default `Math.random`. */
  readonly random?: () => number;
}

/**
 * Cluster IPs from the service CIDR and node ports from the node-port range, as upstream's Service
 * REST storage allocates them, kept in two CAS-guarded store records (`StoredRange`). The first IP
 * of the range is never handed out automatically: it is the `kubernetes` Service's.
 */
export class ServiceAllocator {
  readonly ips: StoredRange;
  readonly ports: StoredRange;
  private readonly started: Promise<void>;
  private settle: (startup: Promise<void>) => void = () => {};

  constructor(readonly o: ServiceAllocatorOptions) {
    this.started = new Promise<void>((resolve) => {
      this.settle = resolve;
    });
    this.started.catch(() => {});
    this.ips = new StoredRange({
      objects: o.objects,
      key: serviceIpsKey,
      range: o.ipRange.cidr,
      size: o.ipRange.size,
      reserved: [0],
      staticBand: ipStaticBand(o.ipRange),
      allocatedMessage: 'provided IP is already allocated',
      ...(o.random ? { random: o.random } : {}),
    });
    this.ports = new StoredRange({
      objects: o.objects,
      key: serviceNodePortsKey,
      range: formatPortRange(o.portRange),
      size: o.portRange.size,
      staticBand: portStaticBand(o.portRange),
      allocatedMessage: 'provided port is already allocated',
      ...(o.random ? { random: o.random } : {}),
    });
  }

  /** Resolves when the start-up repair is done; allocations wait for it. */
  get ready(): Promise<void> {
    return this.started;
  }

  /** Runs `startup` (the first repair) before any allocation; a failure fails the allocations after it. */
  start(startup: () => Promise<void>): Promise<void> {
    const run = startup();
    this.settle(run);
    return run;
  }

  /** The first address of the range: the `kubernetes` Service's cluster IP. */
  get firstIp(): string {
    return formatIp(this.o.ipRange.family, this.o.ipRange.base);
  }

  /** The offset of an IP in the range, or undefined when it is outside (or of the other family). */
  ipOffset(ip: string): number | undefined {
    const p = parseIp(ip);
    if (!p || p.family !== this.o.ipRange.family) return undefined;
    const off = p.value - this.o.ipRange.base;
    return off >= 0n && off < BigInt(this.o.ipRange.size) ? Number(off) : undefined;
  }

  portOffset(port: number): number | undefined {
    const off = port - this.o.portRange.base;
    return Number.isInteger(off) && off >= 0 && off < this.o.portRange.size ? off : undefined;
  }

  /**
   * Fills a new Service's cluster IP fields and node ports (upstream's `allocateCreate`), or, when
   * `old` is given, those an update adds (a type change, a new port), taking values through
   * `taker`. Throws 422 Invalid for a requested value that is taken or out of range, 500 when a range
   * is full, as upstream.
   */
  async allocate(svc: Obj, name: string, old: Obj | undefined, taker: Taker): Promise<void> {
    const spec: Obj = isJsonObject(svc.spec) ? svc.spec : {};
    svc.spec = spec;
    const oldSpec = old && isJsonObject(old.spec) ? old.spec : undefined;
    await this.allocateIps(spec, oldSpec, name, taker);
    await this.allocatePorts(spec, oldSpec, name, taker);
  }

  /** `allocate` for a create: takes at once (or only checks, `dryRun`); returns the undo. */
  async allocateNew(svc: Obj, name: string, dryRun: boolean): Promise<() => Promise<void>> {
    const taker = new DirectTaker(dryRun);
    try {
      await this.allocate(svc, name, undefined, taker);
    } catch (e) {
      await taker.undo();
      throw e;
    }
    return () => taker.undo();
  }

  private async allocateIps(spec: Obj, oldSpec: Obj | undefined, name: string, taker: Taker): Promise<void> {
    const family = this.o.ipRange.family;
    if (spec.type === 'ExternalName') {
      // Upstream's dropTypeDependentFields: moving to ExternalName drops the IP fields left as they were.
      if (oldSpec && oldSpec.type !== 'ExternalName')
        for (const f of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy'])
          if (jsonEqual(spec[f], oldSpec[f])) delete spec[f];
      return;
    }
    const invalid = (causes: StatusCause[]) => errors.invalid('', 'Service', name, causes);
    const oldExternal = oldSpec !== undefined && oldSpec.type === 'ExternalName';
    if (oldSpec && !oldExternal) {
      // Upstream's patchAllocatedValues: an update that leaves the IP fields out keeps them.
      if (isUnset(spec.clusterIP) && oldSpec.clusterIP !== undefined) spec.clusterIP = oldSpec.clusterIP;
      // clusterIPs only when clusterIP was left as it was.
      const copy = [
        'ipFamilies',
        'ipFamilyPolicy',
        ...(spec.clusterIP === oldSpec.clusterIP ? ['clusterIPs'] : []),
      ];
      for (const f of copy)
        if (isUnset(spec[f]) && oldSpec[f] !== undefined) spec[f] = structuredClone(oldSpec[f]);
    }
    let ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs.filter((x) => typeof x === 'string') : [];
    const single = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
    if (ips.length === 0 && single !== '') ips = [single];
    if (single !== '' && ips[0] !== single)
      throw invalid([fieldErrors.invalid('spec.clusterIPs[0]', ips[0], 'must match `clusterIP`')]);
    if (spec.ipFamilyPolicy === 'RequireDualStack')
      throw invalid([
        fieldErrors.invalid(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy,
          'this cluster is not configured for dual-stack services',
        ),
      ]);
    const families = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [];
    families.forEach((f, i) => {
      if (f !== family)
        throw invalid([fieldErrors.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster')]);
    });
    if (ips.length > 1)
      throw invalid([
        fieldErrors.invalid('spec.clusterIPs', ips, 'this cluster is not configured for dual-stack services'),
      ]);
    const requested = ips[0] ?? '';
    if (oldSpec && !oldExternal) {
      const before = typeof oldSpec.clusterIP === 'string' ? oldSpec.clusterIP : '';
      if (before !== '' && requested !== before)
        throw invalid([fieldErrors.invalid('spec.clusterIPs[0]', requested, 'may not change once set')]);
      this.fillFamily(spec, family);
      return;
    }
    if (requested === 'None') {
      spec.clusterIP = 'None';
      spec.clusterIPs = ['None'];
      this.fillFamily(spec, family);
      return;
    }
    let ip = requested;
    if (requested === '') {
      const offset = await taker.next(this.ips, 'failed to allocate a serviceIP');
      ip = formatIp(family, this.o.ipRange.base + BigInt(offset));
    } else {
      const parsed = parseIp(requested);
      if (!parsed)
        throw invalid([
          fieldErrors.invalid(
            'spec.clusterIPs[0]',
            requested,
            'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
          ),
        ]);
      if (parsed.family !== family)
        throw invalid([
          fieldErrors.invalid('spec.ipFamilies[0]', parsed.family, 'not configured on this cluster'),
        ]);
      const offset = this.ipOffset(requested);
      const fail = (why: string) =>
        invalid([
          fieldErrors.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: ${why}`),
        ]);
      if (offset === undefined)
        throw fail(
          `the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${this.o.ipRange.cidr}`,
        );
      await taker.take(this.ips, offset, fail);
      ip = formatIp(family, parsed.value);
    }
    spec.clusterIP = ip;
    spec.clusterIPs = [ip];
    this.fillFamily(spec, family);
  }

  private fillFamily(spec: Obj, family: IpFamily): void {
    if (isUnset(spec.ipFamilies)) spec.ipFamilies = [family];
    if (isUnset(spec.ipFamilyPolicy)) spec.ipFamilyPolicy = 'SingleStack';
  }

  private async allocatePorts(
    spec: Obj,
    oldSpec: Obj | undefined,
    name: string,
    taker: Taker,
  ): Promise<void> {
    const ports = Array.isArray(spec.ports) ? spec.ports.filter(isJsonObject) : [];
    const needs =
      spec.type === 'NodePort' ||
      (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
    const oldPorts = oldSpec && Array.isArray(oldSpec.ports) ? oldSpec.ports.filter(isJsonObject) : [];
    const oldNeeds = oldSpec?.type === 'NodePort' || oldSpec?.type === 'LoadBalancer';
    const held = new Set<unknown>(
      oldNeeds ? oldPorts.map((p) => p.nodePort).filter((n) => typeof n === 'number') : [],
    );
    if (oldNeeds && needs) {
      // Upstream's patchAllocatedValues: node ports left out of an update are kept, matched by port name.
      const byName = new Map(oldPorts.map((p) => [p.name ?? '', p.nodePort]));
      for (const p of ports)
        if (isUnset(p.nodePort) && byName.get(p.name ?? '') !== undefined)
          p.nodePort = byName.get(p.name ?? '');
    }
    // Upstream's dropTypeDependentFields: a type that no longer needs node ports drops the old ones.
    if (oldNeeds && !needs) for (const p of ports) if (held.has(p.nodePort)) delete p.nodePort;
    const mine = new Map<number, number>();
    for (let i = 0; i < ports.length; i++) {
      const p = ports[i] as Obj;
      const requested = typeof p.nodePort === 'number' ? p.nodePort : 0;
      if (requested === 0 && !needs) continue;
      if (requested !== 0) {
        if (held.has(requested) || [...mine.values()].includes(requested)) continue;
        const offset = this.portOffset(requested);
        const fail = (why: string) =>
          errors.invalid('', 'Service', name, [
            fieldErrors.invalid(`spec.ports[${i}].nodePort`, requested, why),
          ]);
        if (offset === undefined)
          throw fail(
            `provided port is not in the valid range. The range of valid ports is ${formatPortRange(this.o.portRange)}`,
          );
        await taker.take(this.ports, offset, fail);
        mine.set(i, requested);
        continue;
      }
      // A port number served on two protocols shares one node port, as upstream allocates it.
      const twin = ports.findIndex((q, j) => j < i && q.port === p.port && typeof q.nodePort === 'number');
      if (twin >= 0) {
        p.nodePort = (ports[twin] as Obj).nodePort;
        continue;
      }
      const offset = await taker.next(this.ports, 'failed to allocate a nodePort');
      p.nodePort = this.o.portRange.base + offset;
      mine.set(i, p.nodePort as number);
    }
    const needsHealthCheck = spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
    if (!needsHealthCheck) {
      if (oldSpec && spec.healthCheckNodePort === oldSpec.healthCheckNodePort)
        delete spec.healthCheckNodePort;
      return;
    }
    if (oldSpec && isUnset(spec.healthCheckNodePort)) spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
    const hc = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
    if (hc !== 0 && (hc === oldSpec?.healthCheckNodePort || held.has(hc))) return;
    if (hc !== 0) {
      const offset = this.portOffset(hc);
      const fail = (why: string) =>
        errors.internal(`failed to allocate requested HealthCheck NodePort ${hc}: ${why}`);
      if (offset === undefined) throw fail('provided port is not in the valid range');
      await taker.take(this.ports, offset, fail);
      return;
    }
    const offset = await taker.next(this.ports, 'failed to allocate a HealthCheck NodePort');
    spec.healthCheckNodePort = this.o.portRange.base + offset;
  }
}

/** The cluster IPs and node ports a stored Service holds (none for ExternalName, none for headless). */
export function heldValues(svc: unknown): HeldValues {
  const spec = isJsonObject(svc) && isJsonObject(svc.spec) ? svc.spec : {};
  const ips =
    spec.type === 'ExternalName'
      ? []
      : (Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP]).filter(
          (x): x is string => typeof x === 'string' && x !== '' && x !== 'None',
        );
  const ports = (Array.isArray(spec.ports) ? spec.ports : [])
    .map((p) => (isJsonObject(p) ? p.nodePort : undefined))
    .filter((n): n is number => typeof n === 'number' && n !== 0);
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort !== 0)
    ports.push(spec.healthCheckNodePort);
  return { ips, ports: [...new Set(ports)] };
}

function isUnset(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0);
}
