import { type Flavor, tryParseQuantity } from '@orchard/meta';
import type { NodeCondition, PressureThresholds } from './conditions.js';
import type { MachineInfo, MachineSignals, NodeAddress } from './machine.js';

/** The version the agent reports as `nodeInfo.kubeletVersion` (the release the spec describes). */
export const agentVersion = 'v1.32.4-orchard.0.1.0';

/** Cloud facts that become labels when known (no cloud provider is built: the caller passes them). */
export interface NodeTopology {
  readonly instanceType?: string;
  readonly region?: string;
  readonly zone?: string;
}

/** What the Node object is built from besides the machine. */
export interface NodeShape {
  readonly nodeName: string;
  /** Extra labels (`--node-labels`). */
  readonly labels?: Readonly<Record<string, string>>;
  readonly topology?: NodeTopology;
  /** `registerWithTaints`. */
  readonly taints?: readonly Record<string, unknown>[];
  readonly providerID?: string;
  /** `maxPods`. */
  readonly maxPods: number;
  /** `systemReserved` + `kubeReserved`, summed per resource (`cpu`, `memory`, `ephemeral-storage`). */
  readonly reserved?: Readonly<Record<string, string>>;
  readonly thresholds: PressureThresholds;
  /** `containerRuntimeVersion` (`''` without a runtime). */
  readonly containerRuntimeVersion?: string;
  /** The port of the agent's own HTTPS endpoint (0 when it serves none). */
  readonly port?: number;
}

/** `kubernetes.io` under the kubernetes flavor (upstream's label domain), the flavor's domain otherwise. */
export function nodeLabelDomain(flavor: Flavor): string {
  return flavor.name === 'kubernetes' ? 'kubernetes.io' : flavor.domain;
}

/**
 * The labels the agent sets on its Node (spec doc 2 §2.8): `<domain>/arch`, `/hostname`, `/os`, and
 * when known `node.<domain>/instance-type`, `topology.<domain>/region`, `topology.<domain>/zone`;
 * `--node-labels` are added first, so the agent's own win.
 */
export function nodeLabels(flavor: Flavor, info: MachineInfo, shape: NodeShape): Record<string, string> {
  const d = nodeLabelDomain(flavor);
  const labels: Record<string, string> = { ...shape.labels };
  labels[`${d}/arch`] = info.architecture;
  labels[`${d}/hostname`] = info.hostname;
  labels[`${d}/os`] = info.operatingSystem;
  const t = shape.topology;
  if (t?.instanceType) labels[`node.${d}/instance-type`] = t.instanceType;
  if (t?.region) labels[`topology.${d}/region`] = t.region;
  if (t?.zone) labels[`topology.${d}/zone`] = t.zone;
  return labels;
}

const ki = (bytes: number) => `${Math.floor(bytes / 1024)}Ki`;

/** A reserved amount: bytes, or millicores for `cpu` (0 when unset or not a quantity). */
function reservedAmount(reserved: Readonly<Record<string, string>> | undefined, key: string): number {
  const v = reserved?.[key];
  if (v === undefined) return 0;
  const q = tryParseQuantity(v);
  if (!q) return 0;
  return Number(key === 'cpu' ? q.milliValue() : q.value());
}

/**
 * `capacity` (CPUs, memory, pods, ephemeral storage of the root directory's filesystem) and
 * `allocatable` (capacity less the reserved amounts and the hard eviction thresholds, as upstream).
 */
export function nodeResources(
  info: MachineInfo,
  signals: MachineSignals,
  shape: NodeShape,
): { capacity: Record<string, string>; allocatable: Record<string, string> } {
  const memoryThreshold = shape.thresholds['memory.available'];
  const memoryEviction =
    'quantity' in memoryThreshold
      ? memoryThreshold.quantity
      : (info.memoryBytes * memoryThreshold.percent) / 100;
  const diskThreshold = shape.thresholds['nodefs.available'];
  const diskEviction =
    'quantity' in diskThreshold
      ? diskThreshold.quantity
      : (signals.diskTotalBytes * diskThreshold.percent) / 100;
  const cpuMillis = info.cpus * 1000 - reservedAmount(shape.reserved, 'cpu');
  return {
    capacity: {
      cpu: String(info.cpus),
      'ephemeral-storage': ki(signals.diskTotalBytes),
      memory: ki(info.memoryBytes),
      pods: String(shape.maxPods),
    },
    allocatable: {
      cpu: cpuMillis % 1000 === 0 ? String(cpuMillis / 1000) : `${Math.max(0, cpuMillis)}m`,
      'ephemeral-storage': String(
        Math.max(
          0,
          Math.floor(
            signals.diskTotalBytes - reservedAmount(shape.reserved, 'ephemeral-storage') - diskEviction,
          ),
        ),
      ),
      memory: ki(Math.max(0, info.memoryBytes - reservedAmount(shape.reserved, 'memory') - memoryEviction)),
      pods: String(shape.maxPods),
    },
  };
}

/** `status.addresses`: the machine's InternalIPs, then the Hostname. */
export function nodeAddresses(info: MachineInfo): NodeAddress[] {
  return [...info.addresses, { type: 'Hostname', address: info.hostname }];
}

/** The whole `status` the agent posts. */
export function nodeStatus(
  info: MachineInfo,
  signals: MachineSignals,
  shape: NodeShape,
  conditions: readonly NodeCondition[],
): Record<string, unknown> {
  return {
    ...nodeResources(info, signals, shape),
    conditions,
    addresses: nodeAddresses(info),
    daemonEndpoints: { kubeletEndpoint: { Port: shape.port ?? 0 } },
    nodeInfo: {
      machineID: info.machineID,
      systemUUID: info.systemUUID,
      bootID: info.bootID,
      kernelVersion: info.kernelVersion,
      osImage: info.osImage,
      containerRuntimeVersion: shape.containerRuntimeVersion ?? '',
      kubeletVersion: agentVersion,
      kubeProxyVersion: '',
      operatingSystem: info.operatingSystem,
      architecture: info.architecture,
    },
  };
}

/** The Node the agent registers (POST /api/v1/nodes): labels, spec and its first status. */
export function registrationObject(
  flavor: Flavor,
  info: MachineInfo,
  shape: NodeShape,
  status: Record<string, unknown>,
): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (shape.taints?.length) spec.taints = shape.taints;
  if (shape.providerID) spec.providerID = shape.providerID;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: shape.nodeName, labels: nodeLabels(flavor, info, shape) },
    spec,
    status,
  };
}
