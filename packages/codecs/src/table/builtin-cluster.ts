/**
 * Column sets of Endpoints, EndpointSlice, PersistentVolumeClaim, PersistentVolume, Node and
 * Ingress as upstream's printers (pkg/printers/internalversion, Kubernetes 1.32) print them.
 */
import { ageColumn, ageOf, arr, col, convertor, nameOf, num, type Obj, obj, str } from './builtin-cells.js';
import { nameColumn } from './table.js';
import type { TableConvertor } from './types.js';

/** Up to `max` items, then ` + N more...` (upstream `listWithMoreString`); `empty` when none. */
function listWithMore(items: string[], max: number, empty: string): string {
  if (items.length === 0) return empty;
  const shown = items.slice(0, max).join(',');
  return items.length > max ? `${shown} + ${items.length - max} more...` : shown;
}

/** `ip:port` for every address and port of every subset (upstream `formatEndpoints`). */
function formatEndpoints(e: Obj): string {
  const subsets = arr(e.subsets);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  for (const ss of subsets) {
    const addresses = arr(ss.addresses).map((a) => str(a.ip));
    const ports = arr(ss.ports);
    if (ports.length === 0) list.push(...addresses);
    else
      for (const p of ports)
        for (const ip of addresses)
          list.push(ip.includes(':') ? `[${ip}]:${num(p.port)}` : `${ip}:${num(p.port)}`);
  }
  return listWithMore(list, 3, '');
}

/** Endpoints (core/v1): Name, Endpoints, Age. */
export const endpointsTable: TableConvertor = convertor(
  [nameColumn, col('Endpoints', 'The set of all endpoints is the union of all subsets.'), ageColumn],
  (e, ctx) => [nameOf(e), formatEndpoints(e), ageOf(e, ctx)],
);

/** EndpointSlices (discovery/v1): Name, AddressType, Ports, Endpoints, Age. */
export const endpointSliceTable: TableConvertor = convertor(
  [
    nameColumn,
    col('AddressType', 'Type of address carried by this EndpointSlice'),
    col('Ports', 'Ports of this EndpointSlice'),
    col('Endpoints', 'Endpoints of this EndpointSlice'),
    ageColumn,
  ],
  (s, ctx) => {
    const ports = arr(s.ports).map((p) =>
      typeof p.port === 'number' ? String(p.port) : typeof p.name === 'string' ? p.name : '*',
    );
    const addresses = arr(s.endpoints).flatMap((e) =>
      Array.isArray(e.addresses) ? e.addresses.map(str) : [],
    );
    return [
      nameOf(s),
      str(s.addressType),
      listWithMore(ports, 3, '<unset>'),
      listWithMore(addresses, 3, '<unset>'),
      ageOf(s, ctx),
    ];
  },
);

const accessModeShort: readonly [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** Upstream's `GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order. */
function accessModes(modes: unknown): string {
  const list = Array.isArray(modes) ? modes : [];
  return accessModeShort
    .filter(([m]) => list.includes(m))
    .map(([, s]) => s)
    .join(',');
}

const storageClass = (o: Obj): string =>
  str(obj(o.spec).storageClassName) ||
  str(obj(obj(o.metadata).annotations)['volume.beta.kubernetes.io/storage-class']);
const quantityText = (q: unknown): string => (typeof q === 'number' ? String(q) : str(q));
const orUnset = (v: unknown): string => (typeof v === 'string' ? v : '<unset>');
const volumeModeColumn = col(
  'VolumeMode',
  'volumeMode defines what type of volume is required by the claim.',
  'string',
  1,
);

/** PersistentVolumeClaims: Name, Status, Volume, Capacity, Access Modes, StorageClass, VolumeAttributesClass, Age; wide: VolumeMode. */
export const persistentVolumeClaimTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Status', 'phase represents the current phase of PersistentVolumeClaim.'),
    col('Volume', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    col('Capacity', 'capacity represents the actual resources of the underlying volume.'),
    col('Access Modes', 'accessModes contains the actual access modes the volume backing the PVC has.'),
    col('StorageClass', 'StorageClass of the pvc'),
    col('VolumeAttributesClass', 'VolumeAttributesClass of the pvc'),
    ageColumn,
    volumeModeColumn,
  ],
  (c, ctx) => {
    const spec = obj(c.spec);
    const status = obj(c.status);
    const bound = str(spec.volumeName) !== '';
    return [
      nameOf(c),
      obj(c.metadata).deletionTimestamp ? 'Terminating' : str(status.phase),
      str(spec.volumeName),
      bound ? quantityText(obj(status.capacity).storage) : '',
      bound ? accessModes(status.accessModes) : '',
      storageClass(c),
      orUnset(spec.volumeAttributesClassName),
      ageOf(c, ctx),
      orUnset(spec.volumeMode),
    ];
  },
);

/** PersistentVolumes: Name, Capacity, Access Modes, Reclaim Policy, Status, Claim, StorageClass, VolumeAttributesClass, Reason, Age; wide: VolumeMode. */
export const persistentVolumeTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Capacity', "capacity is the description of the persistent volume's resources and capacity."),
    col('Access Modes', 'accessModes contains all ways the volume can be mounted.'),
    col(
      'Reclaim Policy',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
    ),
    col('Status', 'phase indicates if a volume is available, bound to a claim, or released by a claim.'),
    col(
      'Claim',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
    ),
    col('StorageClass', 'StorageClass of the pv'),
    col('VolumeAttributesClass', 'VolumeAttributesClass of the pv'),
    col(
      'Reason',
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
    ),
    ageColumn,
    volumeModeColumn,
  ],
  (v, ctx) => {
    const spec = obj(v.spec);
    const status = obj(v.status);
    const claim = spec.claimRef ? `${str(obj(spec.claimRef).namespace)}/${str(obj(spec.claimRef).name)}` : '';
    return [
      nameOf(v),
      quantityText(obj(spec.capacity).storage),
      accessModes(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      obj(v.metadata).deletionTimestamp ? 'Terminating' : str(status.phase),
      claim,
      storageClass(v),
      orUnset(spec.volumeAttributesClassName),
      str(status.reason),
      ageOf(v, ctx),
      orUnset(spec.volumeMode),
    ];
  },
);

/** Ready / NotReady / Unknown, `,SchedulingDisabled` when cordoned (upstream `printNode`). */
function nodeStatus(n: Obj): string {
  const ready = arr(obj(n.status).conditions).find((c) => c.type === 'Ready');
  const parts = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (obj(n.spec).unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

/** The roles from `node-role.kubernetes.io/<role>` and `kubernetes.io/role` labels, sorted. */
function nodeRoles(n: Obj): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(obj(obj(n.metadata).labels))) {
    if (k.startsWith('node-role.kubernetes.io/')) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && str(v) !== '') roles.add(str(v));
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

const nodeAddress = (n: Obj, type: string): string =>
  str(arr(obj(n.status).addresses).find((a) => a.type === type)?.address) || '<none>';

/** Nodes: Name, Status, Roles, Age, Version; wide: Internal-IP, External-IP, OS-Image, Kernel-Version, Container-Runtime. */
export const nodeTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Status', 'The status of the node'),
    col('Roles', 'The roles of the node'),
    ageColumn,
    col('Version', 'Kubelet Version reported by the node.'),
    col('Internal-IP', 'List of addresses reachable to the node.', 'string', 1),
    col('External-IP', 'List of addresses reachable to the node.', 'string', 1),
    col(
      'OS-Image',
      'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
      'string',
      1,
    ),
    col(
      'Kernel-Version',
      "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
      'string',
      1,
    ),
    col(
      'Container-Runtime',
      'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
      'string',
      1,
    ),
  ],
  (n, ctx) => {
    const info = obj(obj(n.status).nodeInfo);
    const known = (v: unknown) => str(v) || '<unknown>';
    return [
      nameOf(n),
      nodeStatus(n),
      nodeRoles(n),
      ageOf(n, ctx),
      str(info.kubeletVersion),
      nodeAddress(n, 'InternalIP'),
      nodeAddress(n, 'ExternalIP'),
      known(info.osImage),
      known(info.kernelVersion),
      known(info.containerRuntimeVersion),
    ];
  },
);

/** Ingresses (networking/v1): Name, Class, Hosts, Address, Ports, Age. */
export const ingressTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Class', 'The name of the IngressClass resource that should be used for ingress'),
    col('Hosts', 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', 'Ports of TLS configurations that open'),
    ageColumn,
  ],
  (i, ctx) => {
    const spec = obj(i.spec);
    const hosts = arr(spec.rules).map((r) => str(r.host) || '*');
    const lb = arr(obj(obj(i.status).loadBalancer).ingress).map((a) => str(a.ip) || str(a.hostname));
    return [
      nameOf(i),
      str(spec.ingressClassName) || '<none>',
      listWithMore(hosts, 4, '*'),
      lb.join(','),
      arr(spec.tls).length > 0 ? '80, 443' : '80',
      ageOf(i, ctx),
    ];
  },
);
