/**
 * The column sets kubectl users expect for the built-in resources, ported from upstream's
 * printers (pkg/printers/internalversion/printers.go). The server generates every column,
 * wide ones included; `priority: 1` marks those kubectl shows only with `-o wide`.
 */
import type { Flavor } from '@orchard/meta';
import { horizontalPodAutoscalerTable } from './builtin-autoscaling.js';
import {
  ageColumn,
  ageOf,
  arr,
  col,
  convertor,
  count,
  formatLabels,
  formatSelector,
  nameOf,
  num,
  type Obj,
  obj,
  str,
} from './builtin-cells.js';
import {
  endpointSliceTable,
  endpointsTable,
  ingressTable,
  nodeTable,
  persistentVolumeClaimTable,
  persistentVolumeTable,
} from './builtin-cluster.js';
import { podTable } from './builtin-pods.js';
import {
  cronJobTable,
  daemonSetTable,
  jobTable,
  replicaSetTable,
  replicationControllerTable,
  statefulSetTable,
} from './builtin-workloads.js';
import { translateTimestampSince } from './human-duration.js';
import { nameColumn } from './table.js';
import type { TableConvertor } from './types.js';

/** ConfigMaps: Name, Data (count of data + binaryData), Age. */
export const configMapTable: TableConvertor = convertor(
  [nameColumn, col('Data', 'Data contains the configuration data.', 'integer'), ageColumn],
  (cm, ctx) => [nameOf(cm), count(cm.data) + count(cm.binaryData), ageOf(cm, ctx)],
);

/** Secrets: Name, Type, Data, Age. */
export const secretTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Type', 'Used to facilitate programmatic handling of secret data.'),
    col('Data', 'Data contains the secret data.', 'integer'),
    ageColumn,
  ],
  (s, ctx) => [nameOf(s), str(s.type), count(s.data), ageOf(s, ctx)],
);

/** Namespaces: Name, Status (phase), Age. */
export const namespaceTable: TableConvertor = convertor(
  [nameColumn, col('Status', 'The status of the namespace'), ageColumn],
  (ns, ctx) => [nameOf(ns), str(obj(ns.status).phase), ageOf(ns, ctx)],
);

/** ServiceAccounts: Name, Secrets (count), Age. */
export const serviceAccountTable: TableConvertor = convertor(
  [
    nameColumn,
    col(
      'Secrets',
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      'integer',
    ),
    ageColumn,
  ],
  (sa, ctx) => [nameOf(sa), arr(sa.secrets).length, ageOf(sa, ctx)],
);

/** Leases: Name, Holder, Age. */
export const leaseTable: TableConvertor = convertor(
  [nameColumn, col('Holder', 'The holder of the lease'), ageColumn],
  (l, ctx) => [nameOf(l), str(obj(l.spec).holderIdentity), ageOf(l, ctx)],
);

function serviceExternalIp(svc: Obj): string {
  const spec = obj(svc.spec);
  const external = (Array.isArray(spec.externalIPs) ? spec.externalIPs : []) as string[];
  switch (spec.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = arr(obj(obj(svc.status).loadBalancer).ingress)
        .map((i) => str(i.ip) || str(i.hostname))
        .filter((x) => x !== '');
      const all = [...lb, ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

/** Services: Name, Type, Cluster-IP, External-IP, Port(s), Age; wide: Selector. */
export const serviceTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Type', 'type determines how the Service is exposed.'),
    col('Cluster-IP', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
    col(
      'External-IP',
      'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
    ),
    col('Port(s)', 'The list of ports that are exposed by this service.'),
    ageColumn,
    col(
      'Selector',
      'Route service traffic to pods with label keys and values matching this selector.',
      'string',
      1,
    ),
  ],
  (svc, ctx) => {
    const spec = obj(svc.spec);
    const clusterIPs = (Array.isArray(spec.clusterIPs) ? spec.clusterIPs : []) as string[];
    const ports = arr(spec.ports).map((p) => {
      const proto = str(p.protocol) || 'TCP';
      return num(p.nodePort) > 0 ? `${num(p.port)}:${num(p.nodePort)}/${proto}` : `${num(p.port)}/${proto}`;
    });
    return [
      nameOf(svc),
      str(spec.type),
      clusterIPs[0] ?? (str(spec.clusterIP) || '<none>'),
      serviceExternalIp(svc),
      ports.length > 0 ? ports.join(',') : '<none>',
      ageOf(svc, ctx),
      formatLabels(spec.selector),
    ];
  },
);

/** Deployments: Name, Ready (`ready/desired`), Up-to-date, Available, Age; wide: Containers, Images, Selector. */
export const deploymentTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Ready', 'Number of the pod with ready state'),
    col(
      'Up-to-date',
      'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
    ),
    col(
      'Available',
      'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
    ),
    ageColumn,
    col('Containers', 'Names of each container in the template.', 'string', 1),
    col('Images', 'Images referenced by each container in the template.', 'string', 1),
    col('Selector', 'Label selector for pods.', 'string', 1),
  ],
  (d, ctx) => {
    const spec = obj(d.spec);
    const st = obj(d.status);
    const containers = arr(obj(obj(spec.template).spec).containers);
    return [
      nameOf(d),
      `${num(st.readyReplicas)}/${num(spec.replicas)}`,
      num(st.updatedReplicas),
      num(st.availableReplicas),
      ageOf(d, ctx),
      containers.map((c) => str(c.name)).join(','),
      containers.map((c) => str(c.image)).join(','),
      formatSelector(spec.selector),
    ];
  },
);

/** Events (core/v1): Last Seen, Type, Reason, Object, Message; wide: Subobject, Source, First Seen, Count, Name. */
export const eventTable: TableConvertor = convertor(
  [
    col('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
    col('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
    col(
      'Reason',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    col('Object', 'The object that this event is about.'),
    col(
      'Subobject',
      'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.',
      'string',
      1,
    ),
    col('Source', 'The component reporting this event.', 'string', 1),
    col('Message', 'A human-readable description of the status of this operation.'),
    col('First Seen', 'The time at which the event was first recorded.', 'string', 1),
    col('Count', 'The number of times this event has occurred.', 'string', 1),
    { ...nameColumn, priority: 1 },
  ],
  (e, ctx) => {
    let first = translateTimestampSince(e.firstTimestamp, ctx.now);
    if (!e.firstTimestamp) first = translateTimestampSince(e.eventTime, ctx.now);
    let last = e.lastTimestamp ? translateTimestampSince(e.lastTimestamp, ctx.now) : first;
    let n = num(e.count);
    if (e.series !== undefined && e.series !== null) {
      last = translateTimestampSince(obj(e.series).lastObservedTime, ctx.now);
      n = num(obj(e.series).count);
    } else if (n === 0) n = 1;
    const involved = obj(e.involvedObject);
    const kind = str(involved.kind).toLowerCase();
    const target = str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
    const src = obj(e.source);
    const [component, instance] = str(src.component)
      ? [str(src.component), str(src.host)]
      : [str(e.reportingComponent), str(e.reportingInstance)];
    return [
      last,
      str(e.type),
      str(e.reason),
      target,
      str(involved.fieldPath),
      instance ? `${component}, ${instance}` : component,
      str(e.message).trim(),
      first,
      n,
      nameOf(e),
    ];
  },
);

/**
 * The built-in column sets by `<group pattern>/<resource>`: `''` is the core group, a group
 * under the flavor's domain is written `<prefix>.*` (as in the Protobuf kind registry).
 */
export const builtinTableConvertors: Readonly<Record<string, TableConvertor>> = Object.freeze({
  '/pods': podTable,
  '/configmaps': configMapTable,
  '/secrets': secretTable,
  '/namespaces': namespaceTable,
  '/serviceaccounts': serviceAccountTable,
  '/events': eventTable,
  '/services': serviceTable,
  'apps/deployments': deploymentTable,
  'apps/replicasets': replicaSetTable,
  'apps/statefulsets': statefulSetTable,
  'apps/daemonsets': daemonSetTable,
  'batch/jobs': jobTable,
  'batch/cronjobs': cronJobTable,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerTable,
  '/replicationcontrollers': replicationControllerTable,
  '/endpoints': endpointsTable,
  'discovery.*/endpointslices': endpointSliceTable,
  '/persistentvolumeclaims': persistentVolumeClaimTable,
  '/persistentvolumes': persistentVolumeTable,
  '/nodes': nodeTable,
  'networking.*/ingresses': ingressTable,
  'coordination.*/leases': leaseTable,
});

/** The built-in column set of a resource, or undefined (then the default table applies). */
export function builtinTableConvertor(
  gr: { readonly group: string; readonly resource: string },
  flavor: Flavor,
): TableConvertor | undefined {
  const suffix = `.${flavor.domain}`;
  const group = gr.group.endsWith(suffix) ? `${gr.group.slice(0, -suffix.length)}.*` : gr.group;
  return builtinTableConvertors[`${group}/${gr.resource}`];
}
