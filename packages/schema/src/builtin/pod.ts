/**
 * PodSpec, Container and the core/v1 types a pod template needs.
 *
 * Schema data, not logic: one declaration per upstream type built with the `dsl.ts` vocabulary (the
 * only functions here, `keySelector` and `probe`, name two shapes upstream repeats). It is long
 * because PodSpec is; split it only along upstream's types, never to meet a line count.
 */
import type { StructuralSchema } from '../structural.js';
import {
  atomicList,
  bool,
  int32,
  int64,
  intOrString,
  mapList,
  mapOf,
  obj,
  quantity,
  str,
  strMap,
  time,
} from './dsl.js';
import { conditionSchema, labelSelectorSchema, objectMetaSchema } from './object-meta.js';

const keySelector = (what: string) =>
  obj(
    `Selects a key of a ${what}.`,
    {
      name: str('Name of the referent.'),
      key: str(`The key of the ${what} to select from. Must be a valid key.`),
      optional: bool(`Specify whether the ${what} or its key must be defined`),
    },
    { required: ['key'], mapType: 'atomic' },
  );

const fieldRef = obj(
  'ObjectFieldSelector selects an APIVersioned field of an object.',
  {
    apiVersion: str('Version of the schema the FieldPath is written in terms of, defaults to "v1".'),
    fieldPath: str('Path of the field to select in the specified API version.'),
  },
  { required: ['fieldPath'], mapType: 'atomic' },
);

const resourceFieldRef = obj(
  'ResourceFieldSelector represents container resources (cpu, memory) and their output format',
  {
    containerName: str('Container name: required for volumes, optional for env vars'),
    divisor: quantity('Specifies the output format of the exposed resources, defaults to "1"'),
    resource: str('Required: resource to select'),
  },
  { required: ['resource'], mapType: 'atomic' },
);

export const envVarSchema: StructuralSchema = obj(
  'EnvVar represents an environment variable present in a Container.',
  {
    name: str('Name of the environment variable. Must be a C_IDENTIFIER.'),
    value: str(
      'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. Defaults to "".',
    ),
    valueFrom: obj("Source for the environment variable's value. Cannot be used if value is not empty.", {
      configMapKeyRef: keySelector('ConfigMap'),
      secretKeyRef: keySelector('Secret'),
      fieldRef,
      resourceFieldRef,
    }),
  },
  { required: ['name'] },
);

const containerPort = obj(
  'ContainerPort represents a network port in a single container.',
  {
    name: str(
      'If specified, this must be an IANA_SVC_NAME and unique within the pod. Each named port in a pod must have a unique name.',
    ),
    // No minimum/maximum, as upstream's OpenAPI: the range is checked with upstream's message.
    containerPort: int32(
      "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.",
    ),
    hostPort: int32(
      'Number of port to expose on the host. If specified, this must be a valid port number, 0 < x < 65536.',
    ),
    hostIP: str('What host IP to bind the external port to.'),
    protocol: str('Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".', {
      default: 'TCP',
      enum: ['TCP', 'UDP', 'SCTP'],
    }),
  },
  { required: ['containerPort'] },
);

const resources = obj('ResourceRequirements describes the compute resource requirements.', {
  limits: mapOf(
    'Limits describes the maximum amount of compute resources allowed.',
    quantity('A resource quantity'),
  ),
  requests: mapOf(
    'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value.',
    quantity('A resource quantity'),
  ),
  claims: mapList(
    'Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container.',
    obj(
      'ResourceClaim references one entry in PodSpec.ResourceClaims.',
      {
        name: str('Name must match the name of one entry in pod.spec.resourceClaims.'),
        request: str('Request is the name chosen for a request in the referenced claim.'),
      },
      { required: ['name'] },
    ),
    ['name'],
  ),
});

const execAction = obj('ExecAction describes a "run in container" action.', {
  command: atomicList(
    "Command is the command line to execute inside the container, the working directory for the command is root ('/') in the container's filesystem.",
    { type: 'string' },
  ),
});
const httpGet = obj(
  'HTTPGetAction describes an action based on HTTP Get requests.',
  {
    path: str('Path to access on the HTTP server.'),
    port: intOrString(
      'Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.',
    ),
    host: str('Host name to connect to, defaults to the pod IP.'),
    scheme: str('Scheme to use for connecting to the host. Defaults to HTTP.'),
    httpHeaders: atomicList(
      'Custom headers to set in the request. HTTP allows repeated headers.',
      obj(
        'HTTPHeader describes a custom header to be used in HTTP probes',
        { name: str('The header field name.'), value: str('The header field value') },
        { required: ['name', 'value'] },
      ),
    ),
  },
  { required: ['port'] },
);
const tcpSocket = obj(
  'TCPSocketAction describes an action based on opening a socket',
  {
    port: intOrString('Number or name of the port to access on the container.'),
    host: str('Optional: Host name to connect to, defaults to the pod IP.'),
  },
  { required: ['port'] },
);
const grpc = obj(
  'GRPCAction specifies an action involving a GRPC service.',
  {
    port: int32('Port number of the gRPC service. Number must be in the range 1 to 65535.'),
    service: str('Service is the name of the service to place in the gRPC HealthCheckRequest.'),
  },
  { required: ['port'] },
);

const probe = (what: string) =>
  obj(
    `${what} Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.`,
    {
      exec: execAction,
      httpGet,
      tcpSocket,
      grpc,
      initialDelaySeconds: int32(
        'Number of seconds after the container has started before liveness probes are initiated.',
      ),
      timeoutSeconds: int32(
        'Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1.',
      ),
      periodSeconds: int32(
        'How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1.',
      ),
      successThreshold: int32(
        'Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1.',
      ),
      failureThreshold: int32(
        'Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3.',
      ),
      terminationGracePeriodSeconds: int64(
        'Optional duration in seconds the pod needs to terminate gracefully upon probe failure.',
      ),
    },
  );

const lifecycleHandler = obj(
  'LifecycleHandler defines a specific action that should be taken in a lifecycle hook.',
  {
    exec: execAction,
    httpGet,
    tcpSocket,
    sleep: obj(
      'SleepAction describes a "sleep" action.',
      { seconds: int64('Seconds is the number of seconds to sleep.') },
      { required: ['seconds'] },
    ),
  },
);

const capabilities = obj('Adds and removes POSIX capabilities from running containers.', {
  add: atomicList('Added capabilities', { type: 'string' }),
  drop: atomicList('Removed capabilities', { type: 'string' }),
});
const seLinuxOptions = obj('SELinuxOptions are the labels to be applied to the container', {
  user: str('User is a SELinux user label that applies to the container.'),
  role: str('Role is a SELinux role label that applies to the container.'),
  type: str('Type is a SELinux type label that applies to the container.'),
  level: str('Level is SELinux level label that applies to the container.'),
});
const seccompProfile = obj(
  "SeccompProfile defines a pod/container's seccomp profile settings. Only one profile source may be set.",
  {
    type: str(
      'type indicates which kind of seccomp profile will be applied. Valid options are: Localhost, RuntimeDefault, Unconfined.',
    ),
    localhostProfile: str(
      'localhostProfile indicates a profile defined in a file on the node should be used.',
    ),
  },
  { required: ['type'] },
);

const securityContext = obj(
  'SecurityContext holds security configuration that will be applied to a container. Some fields are present in both SecurityContext and PodSecurityContext. When both are set, the values in SecurityContext take precedence.',
  {
    capabilities,
    privileged: bool('Run container in privileged mode. Defaults to false.'),
    seLinuxOptions,
    runAsUser: int64(
      'The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified.',
    ),
    runAsGroup: int64('The GID to run the entrypoint of the container process.'),
    runAsNonRoot: bool('Indicates that the container must run as a non-root user.'),
    readOnlyRootFilesystem: bool('Whether this container has a read-only root filesystem. Default is false.'),
    allowPrivilegeEscalation: bool(
      'AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process.',
    ),
    procMount: str('procMount denotes the type of proc mount to use for the containers.'),
    seccompProfile,
  },
);

const volumeMount = obj(
  'VolumeMount describes a mounting of a Volume within a container.',
  {
    name: str('This must match the Name of a Volume.'),
    mountPath: str("Path within the container at which the volume should be mounted. Must not contain ':'."),
    subPath: str(
      'Path within the volume from which the container\'s volume should be mounted. Defaults to "" (volume\'s root).',
    ),
    subPathExpr: str("Expanded path within the volume from which the container's volume should be mounted."),
    readOnly: bool(
      'Mounted read-only if true, read-write otherwise (false or unspecified). Defaults to false.',
    ),
    recursiveReadOnly: str(
      'RecursiveReadOnly specifies whether read-only mounts should be handled recursively.',
    ),
    mountPropagation: str(
      'mountPropagation determines how mounts are propagated from the host to container and the other way around.',
    ),
  },
  { required: ['name', 'mountPath'] },
);

const envFromSource = obj('EnvFromSource represents the source of a set of ConfigMaps or Secrets', {
  prefix: str('Optional text to prepend to the name of each environment variable. Must be a C_IDENTIFIER.'),
  configMapRef: obj('The ConfigMap to select from', {
    name: str('Name of the referent.'),
    optional: bool('Specify whether the ConfigMap must be defined'),
  }),
  secretRef: obj('The Secret to select from', {
    name: str('Name of the referent.'),
    optional: bool('Specify whether the Secret must be defined'),
  }),
});

/** The schema of a Pod container. */
export const containerSchema: StructuralSchema = obj(
  'A single application container that you want to run within a pod.',
  {
    name: str(
      'Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). Cannot be updated.',
    ),
    image: str(
      'Container image name. This field is optional to allow higher level config management to default or override container images in workload controllers like Deployments and StatefulSets.',
    ),
    command: atomicList(
      "Entrypoint array. Not executed within a shell. The container image's ENTRYPOINT is used if this is not provided. Cannot be updated.",
      { type: 'string' },
    ),
    args: atomicList(
      "Arguments to the entrypoint. The container image's CMD is used if this is not provided. Cannot be updated.",
      { type: 'string' },
    ),
    workingDir: str(
      "Container's working directory. If not specified, the container runtime's default will be used. Cannot be updated.",
    ),
    ports: mapList(
      'List of ports to expose from the container. Not specifying a port here DOES NOT prevent that port from being exposed.',
      containerPort,
      ['containerPort', 'protocol'],
    ),
    envFrom: atomicList('List of sources to populate environment variables in the container.', envFromSource),
    env: mapList('List of environment variables to set in the container. Cannot be updated.', envVarSchema, [
      'name',
    ]),
    resources,
    resizePolicy: atomicList(
      'Resources resize policy for the container.',
      obj(
        'ContainerResizePolicy represents resource resize policy for the container.',
        {
          resourceName: str('Name of the resource to which this resource resize policy applies.'),
          restartPolicy: str('Restart policy to apply when specified resource is resized.'),
        },
        { required: ['resourceName', 'restartPolicy'] },
      ),
    ),
    restartPolicy: str(
      'RestartPolicy defines the restart behavior of individual containers in a pod. This field may only be set for init containers, and the only allowed value is "Always".',
    ),
    volumeMounts: mapList(
      "Pod volumes to mount into the container's filesystem. Cannot be updated.",
      volumeMount,
      ['mountPath'],
    ),
    volumeDevices: mapList(
      'volumeDevices is the list of block devices to be used by the container.',
      obj(
        'volumeDevice describes a mapping of a raw block device within a container.',
        {
          name: str('name must match the name of a persistentVolumeClaim in the pod'),
          devicePath: str(
            'devicePath is the path inside of the container that the device will be mapped to.',
          ),
        },
        { required: ['name', 'devicePath'] },
      ),
      ['devicePath'],
    ),
    livenessProbe: probe(
      'Periodic probe of container liveness. Container will be restarted if the probe fails.',
    ),
    readinessProbe: probe(
      'Periodic probe of container service readiness. Container will be removed from service endpoints if the probe fails.',
    ),
    startupProbe: probe('StartupProbe indicates that the Pod has successfully initialized.'),
    lifecycle: obj(
      'Actions that the management system should take in response to container lifecycle events.',
      {
        postStart: lifecycleHandler,
        preStop: lifecycleHandler,
        stopSignal: str(
          'StopSignal defines which signal will be sent to a container when it is being stopped.',
        ),
      },
    ),
    terminationMessagePath: str(
      "Optional: Path at which the file to which the container's termination message will be written is mounted into the container's filesystem. Defaults to /dev/termination-log.",
    ),
    terminationMessagePolicy: str(
      'Indicate how the termination message should be populated. File will use the contents of terminationMessagePath. Defaults to File.',
    ),
    imagePullPolicy: str(
      'Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.',
      { enum: ['Always', 'Never', 'IfNotPresent'] },
    ),
    securityContext,
    stdin: bool(
      'Whether this container should allocate a buffer for stdin in the container runtime. Default is false.',
    ),
    stdinOnce: bool(
      'Whether the container runtime should close the stdin channel after it has been opened by a single attach.',
    ),
    tty: bool(
      "Whether this container should allocate a TTY for itself, also requires 'stdin' to be true. Default is false.",
    ),
  },
  { required: ['name'] },
);

const keyToPath = atomicList(
  'items: if unspecified, each key-value pair in the Data field of the referenced source will be projected into the volume as a file whose name is the key and content is the value.',
  obj(
    'Maps a string key to a path within a volume.',
    {
      key: str('key is the key to project.'),
      path: str('path is the relative path of the file to map the key to.'),
      mode: int32('mode is Optional: mode bits used to set permissions on this file.'),
    },
    { required: ['key', 'path'] },
  ),
);

export const volumeSchema: StructuralSchema = obj(
  'Volume represents a named volume in a pod that may be accessed by any container in the pod.',
  {
    name: str('name of the volume. Must be a DNS_LABEL and unique within the pod.'),
    emptyDir: obj("emptyDir represents a temporary directory that shares a pod's lifetime.", {
      medium: str('medium represents what type of storage medium should back this directory.'),
      sizeLimit: quantity(
        'sizeLimit is the total amount of local storage required for this EmptyDir volume.',
      ),
    }),
    hostPath: obj(
      'hostPath represents a pre-existing file or directory on the host machine that is directly exposed to the container.',
      {
        path: str('path of the directory on the host.'),
        type: str('type for HostPath Volume. Defaults to ""'),
      },
      { required: ['path'] },
    ),
    configMap: obj('configMap represents a configMap that should populate this volume', {
      name: str('Name of the referent.'),
      items: keyToPath,
      defaultMode: int32(
        'defaultMode is optional: mode bits used to set permissions on created files by default.',
      ),
      optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
    }),
    secret: obj('secret represents a secret that should populate this volume.', {
      secretName: str("secretName is the name of the secret in the pod's namespace to use."),
      items: keyToPath,
      defaultMode: int32(
        'defaultMode is Optional: mode bits used to set permissions on created files by default.',
      ),
      optional: bool('optional field specify whether the Secret or its keys must be defined'),
    }),
    persistentVolumeClaim: obj(
      'persistentVolumeClaimVolumeSource represents a reference to a PersistentVolumeClaim in the same namespace.',
      {
        claimName: str(
          'claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume.',
        ),
        readOnly: bool('readOnly Will force the ReadOnly setting in VolumeMounts. Default false.'),
      },
      { required: ['claimName'] },
    ),
    projected: obj('projected items for all in one resources secrets, configmaps, and downward API', {
      sources: atomicList('sources is the list of volume projections.', {
        type: 'object',
        description: 'Projection that may be projected along with other supported volume types.',
        preserveUnknownFields: true,
      }),
      defaultMode: int32(
        'defaultMode are the mode bits used to set permissions on created files by default.',
      ),
    }),
    nfs: {
      type: 'object',
      description: "nfs represents an NFS mount on the host that shares a pod's lifetime.",
      preserveUnknownFields: true,
    },
    csi: {
      type: 'object',
      description:
        'csi (Container Storage Interface) represents ephemeral storage that is handled by certain external CSI drivers.',
      preserveUnknownFields: true,
    },
    ephemeral: {
      type: 'object',
      description:
        "ephemeral represents a volume that is handled by a cluster storage driver. The volume's lifecycle is tied to the pod that defines it.",
      preserveUnknownFields: true,
    },
    image: {
      type: 'object',
      description:
        'image represents an OCI object (a container image or artifact) pulled and mounted on the host machine.',
      preserveUnknownFields: true,
    },
    iscsi: {
      type: 'object',
      description:
        'iscsi represents an ISCSI Disk resource that is attached to a host machine and then exposed to the pod.',
      preserveUnknownFields: true,
    },
    fc: {
      type: 'object',
      description:
        'fc represents a Fibre Channel resource that is attached to a host machine and then exposed to the pod.',
      preserveUnknownFields: true,
    },
    gitRepo: {
      type: 'object',
      description: 'gitRepo represents a git repository at a particular revision. Deprecated.',
      preserveUnknownFields: true,
    },
    cephfs: {
      type: 'object',
      description: "cephFS represents a Ceph FS mount on the host that shares a pod's lifetime. Deprecated.",
      preserveUnknownFields: true,
    },
    rbd: {
      type: 'object',
      description:
        "rbd represents a Rados Block Device mount on the host that shares a pod's lifetime. Deprecated.",
      preserveUnknownFields: true,
    },
    awsElasticBlockStore: {
      type: 'object',
      description:
        "awsElasticBlockStore represents an AWS Disk resource that is attached to a kubelet's host machine and then exposed to the pod. Deprecated.",
      preserveUnknownFields: true,
    },
    gcePersistentDisk: {
      type: 'object',
      description:
        "gcePersistentDisk represents a GCE Disk resource that is attached to a kubelet's host machine and then exposed to the pod. Deprecated.",
      preserveUnknownFields: true,
    },
    azureDisk: {
      type: 'object',
      description:
        'azureDisk represents an Azure Data Disk mount on the host and bind mount to the pod. Deprecated.',
      preserveUnknownFields: true,
    },
    azureFile: {
      type: 'object',
      description:
        'azureFile represents an Azure File Service mount on the host and bind mount to the pod. Deprecated.',
      preserveUnknownFields: true,
    },
    downwardAPI: obj('downwardAPI represents downward API about the pod that should populate this volume', {
      items: atomicList('Items is a list of downward API volume file', {
        type: 'object',
        description:
          'DownwardAPIVolumeFile represents information to create the file containing the pod field',
        preserveUnknownFields: true,
      }),
      defaultMode: int32('Optional: mode bits to use on created files by default.'),
    }),
  },
  { required: ['name'] },
);

const toleration = obj(
  'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.',
  {
    key: str('Key is the taint key that the toleration applies to. Empty means match all taint keys.'),
    operator: str(
      "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal.",
    ),
    value: str('Value is the taint value the toleration matches to.'),
    effect: str(
      'Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.',
    ),
    tolerationSeconds: int64(
      'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint.',
    ),
  },
);

const podSecurityContext = obj(
  'PodSecurityContext holds pod-level security attributes and common container settings.',
  {
    seLinuxOptions,
    runAsUser: int64('The UID to run the entrypoint of the container process.'),
    runAsGroup: int64('The GID to run the entrypoint of the container process.'),
    runAsNonRoot: bool('Indicates that the container must run as a non-root user.'),
    supplementalGroups: atomicList(
      "A list of groups applied to the first process run in each container, in addition to the container's primary GID.",
      { type: 'integer', format: 'int64' },
    ),
    fsGroup: int64('A special supplemental group that applies to all containers in a pod.'),
    fsGroupChangePolicy: str(
      'fsGroupChangePolicy defines behavior of changing ownership and permission of the volume before being exposed inside Pod.',
    ),
    sysctls: atomicList(
      'Sysctls hold a list of namespaced sysctls used for the pod.',
      obj(
        'Sysctl defines a kernel parameter to be set',
        { name: str('Name of a property to set'), value: str('Value of a property to set') },
        { required: ['name', 'value'] },
      ),
    ),
    seccompProfile,
  },
);

const affinity = {
  type: 'object',
  description:
    "If specified, the pod's scheduling constraints (node affinity, pod affinity and pod anti-affinity).",
  preserveUnknownFields: true,
  properties: {
    nodeAffinity: {
      type: 'object',
      description: 'Describes node affinity scheduling rules for the pod.',
      preserveUnknownFields: true,
    },
    podAffinity: {
      type: 'object',
      description:
        'Describes pod affinity scheduling rules (e.g. co-locate this pod in the same node, zone, etc. as some other pod(s)).',
      preserveUnknownFields: true,
    },
    podAntiAffinity: {
      type: 'object',
      description:
        'Describes pod anti-affinity scheduling rules (e.g. avoid putting this pod in the same node, zone, etc. as some other pod(s)).',
      preserveUnknownFields: true,
    },
  },
} satisfies StructuralSchema;

/** The schema of a PodSpec. */
export const podSpecSchema: StructuralSchema = obj(
  'PodSpec is a description of a pod.',
  {
    volumes: mapList(
      'List of volumes that can be mounted by containers belonging to the pod.',
      volumeSchema,
      ['name'],
      { patchStrategy: 'merge,retainKeys' },
    ),
    initContainers: mapList(
      'List of initialization containers belonging to the pod. Init containers are executed in order prior to containers being started.',
      containerSchema,
      ['name'],
    ),
    containers: mapList(
      'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.',
      containerSchema,
      ['name'],
    ),
    ephemeralContainers: mapList(
      'List of ephemeral containers run in this pod.',
      {
        ...containerSchema,
        description:
          'An EphemeralContainer is a temporary container that you may add to an existing Pod for user-initiated activities such as debugging.',
        properties: {
          ...containerSchema.properties,
          targetContainerName: str(
            'If set, the name of the container from PodSpec that this ephemeral container targets. The ephemeral container will be run in the namespaces (IPC, PID, etc) of this container.',
          ),
        },
      },
      ['name'],
    ),
    restartPolicy: str(
      'Restart policy for all containers within the pod. One of Always, OnFailure, Never. Default to Always.',
      { enum: ['Always', 'OnFailure', 'Never'] },
    ),
    terminationGracePeriodSeconds: int64(
      'Optional duration in seconds the pod needs to terminate gracefully. Defaults to 30 seconds.',
    ),
    activeDeadlineSeconds: int64(
      'Optional duration in seconds the pod may be active on the node relative to StartTime before the system will actively try to mark it failed and kill associated containers.',
    ),
    dnsPolicy: str(
      "Set DNS policy for the pod. Defaults to \"ClusterFirst\". Valid values are 'ClusterFirstWithHostNet', 'ClusterFirst', 'Default' or 'None'.",
    ),
    nodeSelector: {
      ...strMap(
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node.",
      ),
      mapType: 'atomic',
    },
    serviceAccountName: str('ServiceAccountName is the name of the ServiceAccount to use to run this pod.'),
    serviceAccount: str(
      'DeprecatedServiceAccount is a deprecated alias for ServiceAccountName. Deprecated: Use serviceAccountName instead.',
    ),
    automountServiceAccountToken: bool(
      'AutomountServiceAccountToken indicates whether a service account token should be automatically mounted.',
    ),
    nodeName: str(
      'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName.',
    ),
    hostNetwork: bool(
      "Host networking requested for this pod. Use the host's network namespace. Default to false.",
    ),
    hostPID: bool("Use the host's pid namespace. Optional: Default to false."),
    hostIPC: bool("Use the host's ipc namespace. Optional: Default to false."),
    shareProcessNamespace: bool('Share a single process namespace between all of the containers in a pod.'),
    securityContext: podSecurityContext,
    imagePullSecrets: mapList(
      'ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec.',
      obj(
        'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
        { name: str('Name of the referent.', { default: '' }) },
        { mapType: 'atomic' },
      ),
      ['name'],
    ),
    hostname: str(
      "Specifies the hostname of the Pod. If not specified, the pod's hostname will be set to a system-defined value.",
    ),
    subdomain: str(
      'If specified, the fully qualified Pod hostname will be "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>".',
    ),
    affinity,
    schedulerName: str(
      'If specified, the pod will be dispatched by specified scheduler. If not specified, the pod will be dispatched by default scheduler.',
    ),
    tolerations: atomicList("If specified, the pod's tolerations.", toleration),
    hostAliases: mapList(
      "HostAliases is an optional list of hosts and IPs that will be injected into the pod's hosts file if specified.",
      obj(
        "HostAlias holds the mapping between IP and hostnames that will be injected as an entry in the pod's hosts file.",
        {
          ip: str('IP address of the host file entry.'),
          hostnames: atomicList('Hostnames for the above IP address.', { type: 'string' }),
        },
        { required: ['ip'] },
      ),
      ['ip'],
    ),
    priorityClassName: str("If specified, indicates the pod's priority."),
    priority: int32(
      'The priority value. Various system components use this field to find the priority of the pod.',
    ),
    runtimeClassName: str(
      'RuntimeClassName refers to a RuntimeClass object in the node.k8s.io group, which should be used to run this pod.',
    ),
    enableServiceLinks: bool(
      "EnableServiceLinks indicates whether information about services should be injected into pod's environment variables. Optional: Defaults to true.",
    ),
    preemptionPolicy: str(
      'PreemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority.',
    ),
    overhead: mapOf(
      'Overhead represents the resource overhead associated with running a pod for a given RuntimeClass.',
      quantity('A resource quantity'),
    ),
    topologySpreadConstraints: mapList(
      'TopologySpreadConstraints describes how a group of pods ought to spread across topology domains.',
      obj(
        'TopologySpreadConstraint specifies how to spread matching pods among the given topology.',
        {
          maxSkew: int32('MaxSkew describes the degree to which pods may be unevenly distributed.'),
          topologyKey: str('TopologyKey is the key of node labels.'),
          whenUnsatisfiable: str(
            "WhenUnsatisfiable indicates how to deal with a pod if it doesn't satisfy the spread constraint.",
          ),
          labelSelector: labelSelectorSchema,
          minDomains: int32('MinDomains indicates a minimum number of eligible domains.'),
        },
        { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] },
      ),
      ['topologyKey', 'whenUnsatisfiable'],
      { patchMergeKey: 'topologyKey' },
    ),
    setHostnameAsFQDN: bool(
      "If true the pod's hostname will be configured as the pod's FQDN, rather than the leaf name (the default).",
    ),
    os: obj(
      'Specifies the OS of the containers in the pod.',
      {
        name: str(
          'Name is the name of the operating system. The currently supported values are linux and windows.',
        ),
      },
      { required: ['name'] },
    ),
    hostUsers: bool("Use the host's user namespace. Optional: Default to true."),
    dnsConfig: obj(
      'Specifies the DNS parameters of a pod. Parameters specified here will be merged to the generated DNS configuration based on DNSPolicy.',
      {
        nameservers: atomicList('A list of DNS name server IP addresses.', { type: 'string' }),
        searches: atomicList('A list of DNS search domains for host-name lookup.', { type: 'string' }),
        options: atomicList(
          'A list of DNS resolver options.',
          obj('PodDNSConfigOption defines DNS resolver options of a pod.', {
            name: str("Name is this DNS resolver option's name. Required."),
            value: str("Value is this DNS resolver option's value."),
          }),
        ),
      },
    ),
    readinessGates: atomicList(
      'If specified, all readiness gates will be evaluated for pod readiness.',
      obj(
        'PodReadinessGate contains the reference to a pod condition',
        {
          conditionType: str(
            "ConditionType refers to a condition in the pod's condition list with matching type.",
          ),
        },
        { required: ['conditionType'] },
      ),
    ),
    schedulingGates: mapList(
      'SchedulingGates is an opaque list of values that if specified will block scheduling the pod.',
      obj(
        'PodSchedulingGate is associated to a Pod to guard its scheduling.',
        { name: str('Name of the scheduling gate. Each scheduling gate must have a unique name field.') },
        { required: ['name'] },
      ),
      ['name'],
    ),
    resourceClaims: mapList(
      'ResourceClaims defines which ResourceClaims must be allocated and reserved before the Pod is allowed to start.',
      {
        type: 'object',
        description: 'PodResourceClaim references exactly one ResourceClaim.',
        required: ['name'],
        properties: {
          name: str('Name uniquely identifies this resource claim inside the pod.'),
          resourceClaimName: str(
            'ResourceClaimName is the name of a ResourceClaim object in the same namespace as this pod.',
          ),
          resourceClaimTemplateName: str(
            'ResourceClaimTemplateName is the name of a ResourceClaimTemplate object in the same namespace as this pod.',
          ),
        },
      },
      ['name'],
      { patchStrategy: 'merge,retainKeys' },
    ),
  },
  { required: ['containers'] },
);

const containerStatus = obj(
  'ContainerStatus contains details for the current status of this container.',
  {
    name: str('Name is a DNS_LABEL representing the unique name of the container.'),
    state: {
      type: 'object',
      description: "State holds details about the container's current condition.",
      preserveUnknownFields: true,
    },
    lastState: {
      type: 'object',
      description: 'LastTerminationState holds the last termination state of the container.',
      preserveUnknownFields: true,
    },
    ready: bool('Ready specifies whether the container is currently passing its readiness check.'),
    restartCount: int32('RestartCount holds the number of times the container has been restarted.'),
    image: str('Image is the name of container image that the container is running.'),
    imageID: str("ImageID is the image ID of the container's image."),
    containerID: str("ContainerID is the ID of the container in the format '<type>://<container_id>'."),
    started: bool(
      'Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe.',
    ),
  },
  { required: ['name', 'ready', 'restartCount', 'image', 'imageID'] },
);

export const podStatusSchema: StructuralSchema = obj(
  'PodStatus represents information about the status of a pod. Status may trail the actual state of a system, especially if the node that hosts the pod cannot contact the control plane.',
  {
    phase: str(
      'The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle. One of Pending, Running, Succeeded, Failed, Unknown.',
    ),
    conditions: mapList(
      'Current service state of pod.',
      {
        ...conditionSchema,
        description: 'PodCondition contains details for the current condition of this pod.',
      },
      ['type'],
    ),
    message: str('A human readable message indicating details about why the pod is in this condition.'),
    reason: str(
      "A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'",
    ),
    nominatedNodeName: str('nominatedNodeName is set only when this pod preempts other pods on the node.'),
    hostIP: str('hostIP holds the IP address of the host to which the pod is assigned.'),
    hostIPs: mapList(
      'hostIPs holds the IP addresses allocated to the host.',
      obj(
        'HostIP represents a single IP address allocated to the host.',
        { ip: str('IP is the IP address assigned to the host') },
        { required: ['ip'] },
      ),
      ['ip'],
    ),
    podIP: str(
      'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
    ),
    podIPs: mapList(
      'podIPs holds the IP addresses allocated to the pod.',
      obj(
        'PodIP represents a single IP address allocated to the pod.',
        { ip: str('IP is the IP address assigned to the pod') },
        { required: ['ip'] },
      ),
      ['ip'],
    ),
    startTime: time(
      'RFC 3339 date and time at which the object was acknowledged by the Kubelet. This is before the Kubelet pulled the container image(s) for the pod.',
    ),
    initContainerStatuses: atomicList(
      'The list has one entry per init container in the manifest.',
      containerStatus,
    ),
    containerStatuses: atomicList('The list has one entry per container in the manifest.', containerStatus),
    ephemeralContainerStatuses: atomicList(
      'Status for any ephemeral containers that have run in this pod.',
      containerStatus,
    ),
    qosClass: str(
      'The Quality of Service (QOS) classification assigned to the pod based on resource requirements.',
    ),
  },
);

/** The schema of a PodTemplateSpec (Deployments' `spec.template`). */
export const podTemplateSpecSchema: StructuralSchema = obj(
  'PodTemplateSpec describes the data a pod should have when created from a template',
  {
    metadata: { ...objectMetaSchema, description: "Standard object's metadata." },
    spec: { ...podSpecSchema, description: 'Specification of the desired behavior of the pod.' },
  },
);
