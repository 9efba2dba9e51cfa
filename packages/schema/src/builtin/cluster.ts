/**
 * core/v1 Node, Endpoints and ReplicationController, discovery/v1 EndpointSlice, networking/v1
 * Ingress (upstream k8s.io/api), with the fields kubectl create/get/describe/explain use.
 */
import type { StructuralSchema } from '../structural.js';
import { kindSchema } from './core.js';
import { atomicList, bool, int32, mapList, mapOf, obj, quantity, str, strMap, time } from './dsl.js';
import { objectReferenceSchema } from './object-meta.js';
import { podTemplateSpecSchema } from './pod.js';

const loose = (description: string): StructuralSchema => ({
  type: 'object',
  description,
  preserveUnknownFields: true,
});
const resourceList = (description: string) => mapOf(description, quantity('A quantity.'));

const nodeCondition = obj(
  'NodeCondition contains condition information for a node.',
  {
    type: str('Type of node condition.'),
    status: str('Status of the condition, one of True, False, Unknown.'),
    lastHeartbeatTime: time('Last time we got an update on a given condition.'),
    lastTransitionTime: time('Last time the condition transit from one status to another.'),
    reason: str("(brief) reason for the condition's last transition."),
    message: str('Human readable message indicating details about last transition.'),
  },
  { required: ['type', 'status'] },
);

/** core/v1 Node (cluster-scoped). */
export const nodeSchema = kindSchema(
  'Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).',
  {
    spec: obj('Spec defines the behavior of a node.', {
      podCIDR: str('PodCIDR represents the pod IP range assigned to the node.'),
      podCIDRs: {
        ...atomicList(
          'podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node.',
          { type: 'string' },
        ),
        listType: 'set',
      },
      providerID: str(
        'ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>',
      ),
      unschedulable: bool(
        'Unschedulable controls node schedulability of new pods. By default, node is schedulable.',
      ),
      taints: atomicList(
        "If specified, the node's taints.",
        obj(
          'The node this Taint is attached to has the "effect" on any pod that does not tolerate the Taint.',
          {
            key: str('Required. The taint key to be applied to a node.'),
            value: str('The taint value corresponding to the taint key.'),
            effect: str('Required. The effect of the taint on pods that do not tolerate the taint.', {
              enum: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
            }),
            timeAdded: time('TimeAdded represents the time at which the taint was added.'),
          },
          { required: ['key', 'effect'] },
        ),
      ),
      configSource: loose(
        "Deprecated: Previously used to specify the source of the node's configuration for the DynamicKubeletConfig feature.",
      ),
      externalID: str('Deprecated. Not all kubelets will set this field.'),
    }),
    status: obj('Most recently observed status of the node.', {
      capacity: resourceList('Capacity represents the total resources of a node.'),
      allocatable: resourceList(
        'Allocatable represents the resources of a node that are available for scheduling.',
      ),
      phase: str('NodePhase is the recently observed lifecycle phase of the node.'),
      conditions: mapList('Conditions is an array of current observed node conditions.', nodeCondition, [
        'type',
      ]),
      addresses: mapList(
        'List of addresses reachable to the node.',
        obj(
          "NodeAddress contains information for the node's address.",
          {
            type: str('Node address type, one of Hostname, ExternalIP or InternalIP.'),
            address: str('The node address.'),
          },
          { required: ['type', 'address'] },
        ),
        ['type'],
      ),
      daemonEndpoints: loose('Endpoints of daemons running on the Node.'),
      nodeInfo: obj('Set of ids/uuids to uniquely identify the node.', {
        machineID: str('MachineID reported by the node.'),
        systemUUID: str('SystemUUID reported by the node.'),
        bootID: str('Boot ID reported by the node.'),
        kernelVersion: str(
          "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
        ),
        osImage: str(
          'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
        ),
        containerRuntimeVersion: str(
          'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
        ),
        kubeletVersion: str('Kubelet Version reported by the node.'),
        kubeProxyVersion: str('Deprecated: KubeProxy Version reported by the node.'),
        operatingSystem: str('The Operating System reported by the node'),
        architecture: str('The Architecture reported by the node'),
      }),
      images: atomicList('List of container images on this node', loose('Describe a container image')),
      volumesInUse: atomicList('List of attachable volumes in use (mounted) by the node.', {
        type: 'string',
      }),
      volumesAttached: atomicList(
        'List of volumes that are attached to the node.',
        loose('AttachedVolume describes a volume attached to a node'),
      ),
      config: loose('Status of the config assigned to the node via the dynamic Kubelet config feature.'),
      runtimeHandlers: atomicList(
        'The available runtime handlers.',
        loose('NodeRuntimeHandler is a set of runtime handler information.'),
      ),
      features: loose('Features describes the set of features implemented by the CRI implementation.'),
    }),
  },
);

const endpointPort = obj('EndpointPort is a tuple that describes a single port.', {
  name: str('The name of this port.'),
  port: int32('The port number of the endpoint.'),
  protocol: str('The IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP.', {
    enum: ['SCTP', 'TCP', 'UDP'],
  }),
  appProtocol: str('The application protocol for this port.'),
});
const endpointAddress = obj(
  'EndpointAddress is a tuple that describes single IP address.',
  {
    ip: str('The IP of this endpoint.'),
    hostname: str('The Hostname of this endpoint'),
    nodeName: str('Optional: Node hosting this endpoint.'),
    targetRef: { ...objectReferenceSchema, description: 'Reference to object providing the endpoint.' },
  },
  { required: ['ip'], mapType: 'atomic' },
);

/** core/v1 Endpoints. */
export const endpointsSchema = kindSchema(
  'Endpoints is a collection of endpoints that implement the actual service.',
  {
    subsets: atomicList(
      'The set of all endpoints is the union of all subsets.',
      obj('EndpointSubset is a group of addresses with a common set of ports.', {
        addresses: atomicList(
          'IP addresses which offer the related ports that are marked as ready.',
          endpointAddress,
        ),
        notReadyAddresses: atomicList(
          'IP addresses which offer the related ports but are not currently marked as ready.',
          endpointAddress,
        ),
        ports: atomicList('Port numbers available on the related IP addresses.', endpointPort),
      }),
    ),
  },
);

/** discovery/v1 EndpointSlice. */
export const endpointSliceSchema = kindSchema(
  'EndpointSlice represents a subset of the endpoints that implement a service.',
  {
    addressType: str('addressType specifies the type of address carried by this EndpointSlice.', {
      enum: ['FQDN', 'IPv4', 'IPv6'],
    }),
    endpoints: atomicList(
      'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.',
      obj(
        'Endpoint represents a single logical "backend" implementing a service.',
        {
          addresses: { ...atomicList('addresses of this endpoint.', { type: 'string' }), listType: 'set' },
          conditions: obj('conditions contains information about the current status of the endpoint.', {
            ready: bool('ready indicates that this endpoint is ready to receive traffic.'),
            serving: bool('serving indicates that this endpoint is able to receive traffic.'),
            terminating: bool('terminating indicates that this endpoint is terminating.'),
          }),
          hostname: str('hostname of this endpoint.'),
          targetRef: {
            ...objectReferenceSchema,
            description: 'targetRef is a reference to a Kubernetes object that represents this endpoint.',
          },
          deprecatedTopology: strMap(
            'deprecatedTopology contains topology information part of the v1beta1 API.',
          ),
          nodeName: str('nodeName represents the name of the Node hosting this endpoint.'),
          zone: str('zone is the name of the Zone this endpoint exists in.'),
          hints: loose('hints contains information associated with how an endpoint should be consumed.'),
        },
        { required: ['addresses'] },
      ),
    ),
    ports: atomicList('ports specifies the list of network ports exposed by each endpoint in this slice.', {
      ...endpointPort,
      description: 'EndpointPort represents a Port used by an EndpointSlice',
    }),
  },
);

/** core/v1 ReplicationController. */
export const replicationControllerSchema = kindSchema(
  'ReplicationController represents the configuration of a replication controller.',
  {
    spec: obj('Spec defines the specification of the desired behavior of the replication controller.', {
      replicas: int32('Replicas is the number of desired replicas. Defaults to 1.'),
      minReadySeconds: int32(
        'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available.',
      ),
      selector: {
        ...strMap('Selector is a label query over pods that should match the Replicas count.'),
        mapType: 'atomic',
      },
      template: {
        ...podTemplateSpecSchema,
        description:
          'Template is the object that describes the pod that will be created if insufficient replicas are detected.',
      },
    }),
    status: obj(
      'Status is the most recently observed status of the replication controller.',
      {
        replicas: int32('Replicas is the most recently observed number of replicas.'),
        fullyLabeledReplicas: int32(
          'The number of pods that have labels matching the labels of the pod template of the replication controller.',
        ),
        readyReplicas: int32('The number of ready replicas for this replication controller.'),
        availableReplicas: int32(
          'The number of available replicas (ready for at least minReadySeconds) for this replication controller.',
        ),
        observedGeneration: {
          type: 'integer',
          format: 'int64',
          description:
            'ObservedGeneration reflects the generation of the most recently observed replication controller.',
        },
        conditions: mapList(
          "Represents the latest available observations of a replication controller's current state.",
          loose(
            'ReplicationControllerCondition describes the state of a replication controller at a certain point.',
          ),
          ['type'],
        ),
      },
      { required: ['replicas'] },
    ),
  },
);

const ingressBackend = loose('IngressBackend describes all endpoints for a given service and port.');

/** networking/v1 Ingress. */
export const ingressSchema = kindSchema(
  'Ingress is a collection of rules that allow inbound connections to reach the endpoints defined by a backend.',
  {
    spec: obj('spec is the desired state of the Ingress.', {
      ingressClassName: str('ingressClassName is the name of an IngressClass cluster resource.'),
      defaultBackend: ingressBackend,
      tls: atomicList(
        'tls represents the TLS configuration.',
        obj('IngressTLS describes the transport layer security associated with an ingress.', {
          hosts: atomicList('hosts is a list of hosts included in the TLS certificate.', { type: 'string' }),
          secretName: str('secretName is the name of the secret used to terminate TLS traffic on port 443.'),
        }),
      ),
      rules: atomicList(
        'rules is a list of host rules used to configure the Ingress.',
        obj(
          'IngressRule represents the rules mapping the paths under a specified host to the related backend services.',
          {
            host: str('host is the fully qualified domain name of a network host, as defined by RFC 3986.'),
            http: obj(
              'HTTPIngressRuleValue is a list of http selectors pointing to backends.',
              {
                paths: atomicList(
                  'paths is a collection of paths that map requests to backends.',
                  obj(
                    'HTTPIngressPath associates a path with a backend.',
                    {
                      path: str('path is matched against the path of an incoming request.'),
                      pathType: str('pathType determines the interpretation of the path matching.', {
                        enum: ['Exact', 'ImplementationSpecific', 'Prefix'],
                      }),
                      backend: ingressBackend,
                    },
                    { required: ['pathType', 'backend'] },
                  ),
                ),
              },
              { required: ['paths'] },
            ),
          },
        ),
      ),
    }),
    status: obj('status is the current state of the Ingress.', {
      loadBalancer: loose('loadBalancer contains the current status of the load-balancer.'),
    }),
  },
);
