/** core/v1 kinds: Namespace, ConfigMap, Secret, ServiceAccount, Event, Pod, Service. */
import type { StructuralSchema } from '../structural.js';
import {
  atomicList,
  bool,
  bytes,
  int32,
  intOrString,
  mapList,
  mapOf,
  obj,
  str,
  strMap,
  time,
  typeMetaProps,
} from './dsl.js';
import { conditionsList, objectMetaSchema, objectReferenceSchema } from './object-meta.js';
import { podSpecSchema, podStatusSchema } from './pod.js';

const metadata = { ...objectMetaSchema, description: "Standard object's metadata." };

/** A top-level kind: apiVersion, kind, metadata plus its own fields. */
export function kindSchema(description: string, props: Record<string, StructuralSchema>): StructuralSchema {
  return obj(description, { ...typeMetaProps, metadata, ...props });
}

export const namespaceSchema = kindSchema(
  'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
  {
    spec: obj('Spec defines the behavior of the Namespace.', {
      finalizers: atomicList(
        'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.',
        { type: 'string' },
      ),
    }),
    status: obj('Status describes the current status of a Namespace.', {
      phase: str('Phase is the current lifecycle phase of the namespace.', {
        enum: ['Active', 'Terminating'],
      }),
      conditions: conditionsList(
        "Represents the latest available observations of a namespace's current state.",
      ),
    }),
  },
);

export const configMapSchema = kindSchema('ConfigMap holds configuration data for pods to consume.', {
  data: strMap(
    "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field.",
  ),
  binaryData: mapOf(
    "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range.",
    bytes('base64-encoded bytes'),
  ),
  immutable: bool(
    'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.',
  ),
});

export const secretSchema = kindSchema(
  'Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.',
  {
    data: mapOf(
      "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string.",
      bytes('base64-encoded bytes'),
    ),
    stringData: strMap(
      'stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values.',
    ),
    type: str('Used to facilitate programmatic handling of secret data.'),
    immutable: bool(
      'Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified).',
    ),
  },
);

export const serviceAccountSchema = kindSchema(
  'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets',
  {
    secrets: mapList(
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      objectReferenceSchema,
      ['name'],
    ),
    imagePullSecrets: atomicList(
      'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.',
      obj(
        'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
        { name: str('Name of the referent.') },
      ),
    ),
    automountServiceAccountToken: bool(
      'AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.',
    ),
  },
);

export const eventSchema = kindSchema('Event is a report of an event somewhere in the cluster.', {
  involvedObject: { ...objectReferenceSchema, description: 'The object that this event is about.' },
  reason: str(
    "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  ),
  message: str('A human-readable description of the status of this operation.'),
  source: obj('The component reporting this event. Should be a short machine understandable string.', {
    component: str('Component from which the event is generated.'),
    host: str('Node name on which the event is generated.'),
  }),
  firstTimestamp: time(
    'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
  ),
  lastTimestamp: time('The time at which the most recent occurrence of this event was recorded.'),
  count: int32('The number of times this event has occurred.'),
  type: str('Type of this event (Normal, Warning), new types could be added in the future'),
  eventTime: {
    type: 'string',
    format: 'date-time',
    description: 'Time when this Event was first observed.',
    nullable: true,
  },
  series: obj("Data about the Event series this event represents or nil if it's a singleton Event.", {
    count: int32('Number of occurrences in this series up to the last heartbeat time'),
    lastObservedTime: {
      type: 'string',
      format: 'date-time',
      description: 'Time of the last occurrence observed',
    },
  }),
  action: str('What action was taken/failed regarding to the Regarding object.'),
  related: { ...objectReferenceSchema, description: 'Optional secondary object for more complex actions.' },
  reportingComponent: str('Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.'),
  reportingInstance: str('ID of the controller instance, e.g. `kubelet-xyzf`.'),
}) as StructuralSchema;
eventSchema.required = ['metadata', 'involvedObject'];

export const podSchema = kindSchema(
  'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
  {
    spec: { ...podSpecSchema, description: 'Specification of the desired behavior of the pod.' },
    status: {
      ...podStatusSchema,
      description:
        'Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only.',
    },
  },
);

const servicePort = obj(
  "ServicePort contains information on service's port.",
  {
    name: str(
      'The name of this port within the service. This must be a DNS_LABEL. All ports within a ServiceSpec must have unique names.',
    ),
    protocol: str('The IP protocol for this port. Supports "TCP", "UDP", and "SCTP". Default is TCP.', {
      default: 'TCP',
      enum: ['TCP', 'UDP', 'SCTP'],
    }),
    appProtocol: str(
      'The application protocol for this port. This is used as a hint for implementations to offer richer behavior for protocols that they understand.',
    ),
    port: int32('The port that will be exposed by this service.'),
    targetPort: intOrString(
      "Number or name of the port to access on the pods targeted by the service. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME. If this is a string, it will be looked up as a named port in the target Pod's container ports.",
    ),
    nodePort: int32(
      'The port on each node on which this service is exposed when type is NodePort or LoadBalancer.',
    ),
  },
  { required: ['port'] },
);

export const serviceSchema = kindSchema(
  'Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.',
  {
    spec: obj('Spec defines the behavior of a service.', {
      ports: mapList('The list of ports that are exposed by this service.', servicePort, [
        'port',
        'protocol',
      ]),
      selector: {
        ...strMap(
          'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints.',
        ),
        mapType: 'atomic',
      },
      clusterIP: str('clusterIP is the IP address of the service and is usually assigned randomly.'),
      clusterIPs: atomicList(
        'ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly.',
        { type: 'string' },
      ),
      type: str(
        'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.',
        { enum: ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'] },
      ),
      externalIPs: atomicList(
        'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
        { type: 'string' },
      ),
      sessionAffinity: str(
        'Supports "ClientIP" and "None". Used to maintain session affinity. Defaults to None.',
        { enum: ['ClientIP', 'None'] },
      ),
      loadBalancerIP: str('Only applies to Service Type: LoadBalancer. Deprecated.'),
      loadBalancerSourceRanges: atomicList(
        'If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer will be restricted to the specified client IPs.',
        { type: 'string' },
      ),
      externalName: str(
        'externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record).',
      ),
      externalTrafficPolicy: str(
        'externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service\'s "externally-facing" addresses.',
      ),
      healthCheckNodePort: int32('healthCheckNodePort specifies the healthcheck nodePort for the service.'),
      publishNotReadyAddresses: bool(
        'publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready.',
      ),
      ipFamilies: atomicList(
        'IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service.',
        { type: 'string' },
      ),
      ipFamilyPolicy: str(
        'IPFamilyPolicy represents the dual-stack-ness requested or required by this Service.',
      ),
      allocateLoadBalancerNodePorts: bool(
        'allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer. Default is "true".',
      ),
      loadBalancerClass: str(
        'loadBalancerClass is the class of the load balancer implementation this Service belongs to.',
      ),
      internalTrafficPolicy: str(
        'InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP.',
      ),
      trafficDistribution: str(
        'TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints.',
      ),
    }),
    status: obj('Most recently observed status of the service. Populated by the system. Read-only.', {
      loadBalancer: obj('LoadBalancer contains the current status of the load-balancer, if one is present.', {
        ingress: atomicList('Ingress is a list containing ingress points for the load-balancer.', {
          type: 'object',
          description: 'LoadBalancerIngress represents the status of a load-balancer ingress point.',
          preserveUnknownFields: true,
        }),
      }),
      conditions: conditionsList('Current service state'),
    }),
  },
);
