/**
 * k8s.io/api/core/v1: the messages of the kinds Orchard serves (ConfigMap, Namespace, Secret,
 * ServiceAccount, Pod, Service, Event, ResourceQuota; Node from core-v1-node.ts) with the upstream field numbers. Volume sources of
 * retired in-tree storage plugins are left out. See apimachinery.ts for why this is a TS string.
 *
 * Schema data, not logic: the file is one .proto text constant, as long as upstream's messages are.
 */
import { coreV1NodeMessages } from './core-v1-node.js';
import type { ProtoFile } from './proto-file.js';

export const coreV1Proto: ProtoFile = {
  path: 'k8s.io/api/core/v1/generated.proto',
  text: `syntax = "proto2";

package k8s.io.api.core.v1;

import "k8s.io/apimachinery/pkg/api/resource/generated.proto";
import "k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto";
import "k8s.io/apimachinery/pkg/util/intstr/generated.proto";

message Affinity {
  optional NodeAffinity nodeAffinity = 1;
  optional PodAffinity podAffinity = 2;
  optional PodAntiAffinity podAntiAffinity = 3;
}

message AppArmorProfile {
  optional string type = 1;
  optional string localhostProfile = 2;
}

message CSIVolumeSource {
  optional string driver = 1;
  optional bool readOnly = 2;
  optional string fsType = 3;
  map<string, string> volumeAttributes = 4;
  optional LocalObjectReference nodePublishSecretRef = 5;
}

message Capabilities {
  repeated string add = 1;
  repeated string drop = 2;
}

message ClientIPConfig {
  optional int32 timeoutSeconds = 1;
}

message ClusterTrustBundleProjection {
  optional string name = 1;
  optional string signerName = 2;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 3;
  optional bool optional = 5;
  optional string path = 4;
}

message ConfigMap {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional bool immutable = 4;
  map<string, string> data = 2;
  map<string, bytes> binaryData = 3;
}

message ConfigMapEnvSource {
  optional LocalObjectReference localObjectReference = 1;
  optional bool optional = 2;
}

message ConfigMapKeySelector {
  optional LocalObjectReference localObjectReference = 1;
  optional string key = 2;
  optional bool optional = 3;
}

message ConfigMapList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated ConfigMap items = 2;
}

message ConfigMapProjection {
  optional LocalObjectReference localObjectReference = 1;
  repeated KeyToPath items = 2;
  optional bool optional = 4;
}

message ConfigMapVolumeSource {
  optional LocalObjectReference localObjectReference = 1;
  repeated KeyToPath items = 2;
  optional int32 defaultMode = 3;
  optional bool optional = 4;
}

message Container {
  optional string name = 1;
  optional string image = 2;
  repeated string command = 3;
  repeated string args = 4;
  optional string workingDir = 5;
  repeated ContainerPort ports = 6;
  repeated EnvFromSource envFrom = 19;
  repeated EnvVar env = 7;
  optional ResourceRequirements resources = 8;
  repeated ContainerResizePolicy resizePolicy = 23;
  optional string restartPolicy = 24;
  repeated VolumeMount volumeMounts = 9;
  repeated VolumeDevice volumeDevices = 21;
  optional Probe livenessProbe = 10;
  optional Probe readinessProbe = 11;
  optional Probe startupProbe = 22;
  optional Lifecycle lifecycle = 12;
  optional string terminationMessagePath = 13;
  optional string terminationMessagePolicy = 20;
  optional string imagePullPolicy = 14;
  optional SecurityContext securityContext = 15;
  optional bool stdin = 16;
  optional bool stdinOnce = 17;
  optional bool tty = 18;
}

message ContainerPort {
  optional string name = 1;
  optional int32 hostPort = 2;
  optional int32 containerPort = 3;
  optional string protocol = 4;
  optional string hostIP = 5;
}

message ContainerResizePolicy {
  optional string resourceName = 1;
  optional string restartPolicy = 2;
}

message ContainerState {
  optional ContainerStateWaiting waiting = 1;
  optional ContainerStateRunning running = 2;
  optional ContainerStateTerminated terminated = 3;
}

message ContainerStateRunning {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time startedAt = 1;
}

message ContainerStateTerminated {
  optional int32 exitCode = 1;
  optional int32 signal = 2;
  optional string reason = 3;
  optional string message = 4;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time startedAt = 5;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time finishedAt = 6;
  optional string containerID = 7;
}

message ContainerStateWaiting {
  optional string reason = 1;
  optional string message = 2;
}

message ContainerStatus {
  optional string name = 1;
  optional ContainerState state = 2;
  optional ContainerState lastState = 3;
  optional bool ready = 4;
  optional int32 restartCount = 5;
  optional string image = 6;
  optional string imageID = 7;
  optional string containerID = 8;
  optional bool started = 9;
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> allocatedResources = 10;
  optional ResourceRequirements resources = 11;
  repeated VolumeMountStatus volumeMounts = 12;
}

message DownwardAPIProjection {
  repeated DownwardAPIVolumeFile items = 1;
}

message DownwardAPIVolumeFile {
  optional string path = 1;
  optional ObjectFieldSelector fieldRef = 2;
  optional ResourceFieldSelector resourceFieldRef = 3;
  optional int32 mode = 4;
}

message DownwardAPIVolumeSource {
  repeated DownwardAPIVolumeFile items = 1;
  optional int32 defaultMode = 2;
}

message EmptyDirVolumeSource {
  optional string medium = 1;
  optional k8s.io.apimachinery.pkg.api.resource.Quantity sizeLimit = 2;
}

message EnvFromSource {
  optional string prefix = 1;
  optional ConfigMapEnvSource configMapRef = 2;
  optional SecretEnvSource secretRef = 3;
}

message EnvVar {
  optional string name = 1;
  optional string value = 2;
  optional EnvVarSource valueFrom = 3;
}

message EnvVarSource {
  optional ObjectFieldSelector fieldRef = 1;
  optional ResourceFieldSelector resourceFieldRef = 2;
  optional ConfigMapKeySelector configMapKeyRef = 3;
  optional SecretKeySelector secretKeyRef = 4;
}

message EphemeralContainer {
  optional EphemeralContainerCommon ephemeralContainerCommon = 1;
  optional string targetContainerName = 2;
}

message EphemeralContainerCommon {
  optional string name = 1;
  optional string image = 2;
  repeated string command = 3;
  repeated string args = 4;
  optional string workingDir = 5;
  repeated ContainerPort ports = 6;
  repeated EnvFromSource envFrom = 19;
  repeated EnvVar env = 7;
  optional ResourceRequirements resources = 8;
  repeated ContainerResizePolicy resizePolicy = 23;
  optional string restartPolicy = 24;
  repeated VolumeMount volumeMounts = 9;
  repeated VolumeDevice volumeDevices = 21;
  optional Probe livenessProbe = 10;
  optional Probe readinessProbe = 11;
  optional Probe startupProbe = 22;
  optional Lifecycle lifecycle = 12;
  optional string terminationMessagePath = 13;
  optional string terminationMessagePolicy = 20;
  optional string imagePullPolicy = 14;
  optional SecurityContext securityContext = 15;
  optional bool stdin = 16;
  optional bool stdinOnce = 17;
  optional bool tty = 18;
}

message EphemeralVolumeSource {
  optional PersistentVolumeClaimTemplate volumeClaimTemplate = 1;
}

message Event {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ObjectReference involvedObject = 2;
  optional string reason = 3;
  optional string message = 4;
  optional EventSource source = 5;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time firstTimestamp = 6;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTimestamp = 7;
  optional int32 count = 8;
  optional string type = 9;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime eventTime = 10;
  optional EventSeries series = 11;
  optional string action = 12;
  optional ObjectReference related = 13;
  optional string reportingComponent = 14;
  optional string reportingInstance = 15;
}

message EventList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Event items = 2;
}

message EventSeries {
  optional int32 count = 1;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime lastObservedTime = 2;
}

message EventSource {
  optional string component = 1;
  optional string host = 2;
}

message ExecAction {
  repeated string command = 1;
}

message GRPCAction {
  optional int32 port = 1;
  optional string service = 2;
}

message HTTPGetAction {
  optional string path = 1;
  optional k8s.io.apimachinery.pkg.util.intstr.IntOrString port = 2;
  optional string host = 3;
  optional string scheme = 4;
  repeated HTTPHeader httpHeaders = 5;
}

message HTTPHeader {
  optional string name = 1;
  optional string value = 2;
}

message HostAlias {
  optional string ip = 1;
  repeated string hostnames = 2;
}

message HostIP {
  optional string ip = 1;
}

message HostPathVolumeSource {
  optional string path = 1;
  optional string type = 2;
}

message ImageVolumeSource {
  optional string reference = 1;
  optional string pullPolicy = 2;
}

message KeyToPath {
  optional string key = 1;
  optional string path = 2;
  optional int32 mode = 3;
}

message Lifecycle {
  optional LifecycleHandler postStart = 1;
  optional LifecycleHandler preStop = 2;
}

message LifecycleHandler {
  optional ExecAction exec = 1;
  optional HTTPGetAction httpGet = 2;
  optional TCPSocketAction tcpSocket = 3;
  optional SleepAction sleep = 4;
}

message LoadBalancerIngress {
  optional string ip = 1;
  optional string hostname = 2;
  optional string ipMode = 3;
  repeated PortStatus ports = 4;
}

message LoadBalancerStatus {
  repeated LoadBalancerIngress ingress = 1;
}

message LocalObjectReference {
  optional string name = 1;
}

message NFSVolumeSource {
  optional string server = 1;
  optional string path = 2;
  optional bool readOnly = 3;
}

message Namespace {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional NamespaceSpec spec = 2;
  optional NamespaceStatus status = 3;
}

message NamespaceCondition {
  optional string type = 1;
  optional string status = 2;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}

message NamespaceList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Namespace items = 2;
}

message NamespaceSpec {
  repeated string finalizers = 1;
}

message NamespaceStatus {
  optional string phase = 1;
  repeated NamespaceCondition conditions = 2;
}

message NodeAffinity {
  optional NodeSelector requiredDuringSchedulingIgnoredDuringExecution = 1;
  repeated PreferredSchedulingTerm preferredDuringSchedulingIgnoredDuringExecution = 2;
}

message NodeSelector {
  repeated NodeSelectorTerm nodeSelectorTerms = 1;
}

message NodeSelectorRequirement {
  optional string key = 1;
  optional string operator = 2;
  repeated string values = 3;
}

message NodeSelectorTerm {
  repeated NodeSelectorRequirement matchExpressions = 1;
  repeated NodeSelectorRequirement matchFields = 2;
}

message ObjectFieldSelector {
  optional string apiVersion = 1;
  optional string fieldPath = 2;
}

message ObjectReference {
  optional string kind = 1;
  optional string namespace = 2;
  optional string name = 3;
  optional string uid = 4;
  optional string apiVersion = 5;
  optional string resourceVersion = 6;
  optional string fieldPath = 7;
}

message PersistentVolumeClaimSpec {
  repeated string accessModes = 1;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 4;
  optional VolumeResourceRequirements resources = 2;
  optional string volumeName = 3;
  optional string storageClassName = 5;
  optional string volumeMode = 6;
  optional TypedLocalObjectReference dataSource = 7;
  optional TypedObjectReference dataSourceRef = 8;
  optional string volumeAttributesClassName = 9;
}

message PersistentVolumeClaimTemplate {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional PersistentVolumeClaimSpec spec = 2;
}

message PersistentVolumeClaimVolumeSource {
  optional string claimName = 1;
  optional bool readOnly = 2;
}

message Pod {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional PodSpec spec = 2;
  optional PodStatus status = 3;
}

message PodAffinity {
  repeated PodAffinityTerm requiredDuringSchedulingIgnoredDuringExecution = 1;
  repeated WeightedPodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution = 2;
}

message PodAffinityTerm {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 1;
  repeated string namespaces = 2;
  optional string topologyKey = 3;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 4;
  repeated string matchLabelKeys = 5;
  repeated string mismatchLabelKeys = 6;
}

message PodAntiAffinity {
  repeated PodAffinityTerm requiredDuringSchedulingIgnoredDuringExecution = 1;
  repeated WeightedPodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution = 2;
}

message PodCondition {
  optional string type = 1;
  optional string status = 2;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastProbeTime = 3;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}

message PodDNSConfig {
  repeated string nameservers = 1;
  repeated string searches = 2;
  repeated PodDNSConfigOption options = 3;
}

message PodDNSConfigOption {
  optional string name = 1;
  optional string value = 2;
}

message PodIP {
  optional string ip = 1;
}

message PodList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Pod items = 2;
}

message PodOS {
  optional string name = 1;
}

message PodReadinessGate {
  optional string conditionType = 1;
}

message PodSchedulingGate {
  optional string name = 1;
}

message PodSecurityContext {
  optional SELinuxOptions seLinuxOptions = 1;
  optional WindowsSecurityContextOptions windowsOptions = 8;
  optional int64 runAsUser = 2;
  optional int64 runAsGroup = 6;
  optional bool runAsNonRoot = 3;
  repeated int64 supplementalGroups = 4;
  optional string supplementalGroupsPolicy = 12;
  optional int64 fsGroup = 5;
  repeated Sysctl sysctls = 7;
  optional string fsGroupChangePolicy = 9;
  optional SeccompProfile seccompProfile = 10;
  optional AppArmorProfile appArmorProfile = 11;
  optional string seLinuxChangePolicy = 13;
}

message PodSpec {
  repeated Volume volumes = 1;
  repeated Container initContainers = 20;
  repeated Container containers = 2;
  repeated EphemeralContainer ephemeralContainers = 34;
  optional string restartPolicy = 3;
  optional int64 terminationGracePeriodSeconds = 4;
  optional int64 activeDeadlineSeconds = 5;
  optional string dnsPolicy = 6;
  map<string, string> nodeSelector = 7;
  optional string serviceAccountName = 8;
  optional string serviceAccount = 9;
  optional bool automountServiceAccountToken = 21;
  optional string nodeName = 10;
  optional bool hostNetwork = 11;
  optional bool hostPID = 12;
  optional bool hostIPC = 13;
  optional bool shareProcessNamespace = 27;
  optional PodSecurityContext securityContext = 14;
  repeated LocalObjectReference imagePullSecrets = 15;
  optional string hostname = 16;
  optional string subdomain = 17;
  optional Affinity affinity = 18;
  optional string schedulerName = 19;
  repeated Toleration tolerations = 22;
  repeated HostAlias hostAliases = 23;
  optional string priorityClassName = 24;
  optional int32 priority = 25;
  optional PodDNSConfig dnsConfig = 26;
  repeated PodReadinessGate readinessGates = 28;
  optional string runtimeClassName = 29;
  optional bool enableServiceLinks = 30;
  optional string preemptionPolicy = 31;
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> overhead = 32;
  repeated TopologySpreadConstraint topologySpreadConstraints = 33;
  optional bool setHostnameAsFQDN = 35;
  optional PodOS os = 36;
  optional bool hostUsers = 37;
  repeated PodSchedulingGate schedulingGates = 38;
  optional ResourceRequirements resources = 40;
}

message PodStatus {
  optional string phase = 1;
  repeated PodCondition conditions = 2;
  optional string message = 3;
  optional string reason = 4;
  optional string nominatedNodeName = 11;
  optional string hostIP = 5;
  repeated HostIP hostIPs = 16;
  optional string podIP = 6;
  repeated PodIP podIPs = 12;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time startTime = 7;
  repeated ContainerStatus initContainerStatuses = 10;
  repeated ContainerStatus containerStatuses = 8;
  optional string qosClass = 9;
  repeated ContainerStatus ephemeralContainerStatuses = 13;
  optional string resize = 14;
}

message PodTemplateSpec {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional PodSpec spec = 2;
}

message PortStatus {
  optional int32 port = 1;
  optional string protocol = 2;
  optional string error = 3;
}

message PreferredSchedulingTerm {
  optional int32 weight = 1;
  optional NodeSelectorTerm preference = 2;
}

message Probe {
  optional ProbeHandler handler = 1;
  optional int32 initialDelaySeconds = 2;
  optional int32 timeoutSeconds = 3;
  optional int32 periodSeconds = 4;
  optional int32 successThreshold = 5;
  optional int32 failureThreshold = 6;
  optional int64 terminationGracePeriodSeconds = 7;
}

message ProbeHandler {
  optional ExecAction exec = 1;
  optional HTTPGetAction httpGet = 2;
  optional TCPSocketAction tcpSocket = 3;
  optional GRPCAction grpc = 4;
}

message ProjectedVolumeSource {
  repeated VolumeProjection sources = 1;
  optional int32 defaultMode = 2;
}

message ResourceClaim {
  optional string name = 1;
  optional string request = 2;
}

message ResourceFieldSelector {
  optional string containerName = 1;
  optional string resource = 2;
  optional k8s.io.apimachinery.pkg.api.resource.Quantity divisor = 3;
}

message ResourceRequirements {
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> limits = 1;
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> requests = 2;
  repeated ResourceClaim claims = 3;
}

message ResourceQuota {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ResourceQuotaSpec spec = 2;
  optional ResourceQuotaStatus status = 3;
}

message ResourceQuotaList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated ResourceQuota items = 2;
}

message ResourceQuotaSpec {
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> hard = 1;
  repeated string scopes = 2;
  optional ScopeSelector scopeSelector = 3;
}

message ResourceQuotaStatus {
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> hard = 1;
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> used = 2;
}

message SELinuxOptions {
  optional string user = 1;
  optional string role = 2;
  optional string type = 3;
  optional string level = 4;
}

message SeccompProfile {
  optional string type = 1;
  optional string localhostProfile = 2;
}

message ScopeSelector {
  repeated ScopedResourceSelectorRequirement matchExpressions = 1;
}

message ScopedResourceSelectorRequirement {
  optional string scopeName = 1;
  optional string operator = 2;
  repeated string values = 3;
}

message Secret {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional bool immutable = 5;
  map<string, bytes> data = 2;
  map<string, string> stringData = 4;
  optional string type = 3;
}

message SecretEnvSource {
  optional LocalObjectReference localObjectReference = 1;
  optional bool optional = 2;
}

message SecretKeySelector {
  optional LocalObjectReference localObjectReference = 1;
  optional string key = 2;
  optional bool optional = 3;
}

message SecretList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Secret items = 2;
}

message SecretProjection {
  optional LocalObjectReference localObjectReference = 1;
  repeated KeyToPath items = 2;
  optional bool optional = 4;
}

message SecretVolumeSource {
  optional string secretName = 1;
  repeated KeyToPath items = 2;
  optional int32 defaultMode = 3;
  optional bool optional = 4;
}

message SecurityContext {
  optional Capabilities capabilities = 1;
  optional bool privileged = 2;
  optional SELinuxOptions seLinuxOptions = 3;
  optional WindowsSecurityContextOptions windowsOptions = 10;
  optional int64 runAsUser = 4;
  optional int64 runAsGroup = 8;
  optional bool runAsNonRoot = 5;
  optional bool readOnlyRootFilesystem = 6;
  optional bool allowPrivilegeEscalation = 7;
  optional string procMount = 9;
  optional SeccompProfile seccompProfile = 11;
  optional AppArmorProfile appArmorProfile = 12;
}

message Service {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ServiceSpec spec = 2;
  optional ServiceStatus status = 3;
}

message ServiceAccount {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  repeated ObjectReference secrets = 2;
  repeated LocalObjectReference imagePullSecrets = 3;
  optional bool automountServiceAccountToken = 4;
}

message ServiceAccountList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated ServiceAccount items = 2;
}

message ServiceAccountTokenProjection {
  optional string audience = 1;
  optional int64 expirationSeconds = 2;
  optional string path = 3;
}

message ServiceList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Service items = 2;
}

message ServicePort {
  optional string name = 1;
  optional string protocol = 2;
  optional string appProtocol = 6;
  optional int32 port = 3;
  optional k8s.io.apimachinery.pkg.util.intstr.IntOrString targetPort = 4;
  optional int32 nodePort = 5;
}

message ServiceSpec {
  repeated ServicePort ports = 1;
  map<string, string> selector = 2;
  optional string clusterIP = 3;
  repeated string clusterIPs = 18;
  optional string type = 4;
  repeated string externalIPs = 5;
  optional string sessionAffinity = 7;
  optional string loadBalancerIP = 8;
  repeated string loadBalancerSourceRanges = 9;
  optional string externalName = 10;
  optional string externalTrafficPolicy = 11;
  optional int32 healthCheckNodePort = 12;
  optional bool publishNotReadyAddresses = 13;
  optional SessionAffinityConfig sessionAffinityConfig = 14;
  repeated string ipFamilies = 19;
  optional string ipFamilyPolicy = 17;
  optional bool allocateLoadBalancerNodePorts = 20;
  optional string loadBalancerClass = 21;
  optional string internalTrafficPolicy = 22;
  optional string trafficDistribution = 23;
}

message ServiceStatus {
  optional LoadBalancerStatus loadBalancer = 1;
  repeated k8s.io.apimachinery.pkg.apis.meta.v1.Condition conditions = 2;
}

message SessionAffinityConfig {
  optional ClientIPConfig clientIP = 1;
}

message SleepAction {
  optional int64 seconds = 1;
}

message Sysctl {
  optional string name = 1;
  optional string value = 2;
}

message TCPSocketAction {
  optional k8s.io.apimachinery.pkg.util.intstr.IntOrString port = 1;
  optional string host = 2;
}

message Toleration {
  optional string key = 1;
  optional string operator = 2;
  optional string value = 3;
  optional string effect = 4;
  optional int64 tolerationSeconds = 5;
}

message TopologySpreadConstraint {
  optional int32 maxSkew = 1;
  optional string topologyKey = 2;
  optional string whenUnsatisfiable = 3;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 4;
  optional int32 minDomains = 5;
  optional string nodeAffinityPolicy = 6;
  optional string nodeTaintsPolicy = 7;
  repeated string matchLabelKeys = 8;
}

message TypedLocalObjectReference {
  optional string apiGroup = 1;
  optional string kind = 2;
  optional string name = 3;
}

message TypedObjectReference {
  optional string apiGroup = 1;
  optional string kind = 2;
  optional string name = 3;
  optional string namespace = 4;
}

message Volume {
  optional string name = 1;
  optional VolumeSource volumeSource = 2;
}

message VolumeDevice {
  optional string name = 1;
  optional string devicePath = 2;
}

message VolumeMount {
  optional string name = 1;
  optional bool readOnly = 2;
  optional string recursiveReadOnly = 7;
  optional string mountPath = 3;
  optional string subPath = 4;
  optional string mountPropagation = 5;
  optional string subPathExpr = 6;
}

message VolumeMountStatus {
  optional string name = 1;
  optional string mountPath = 2;
  optional bool readOnly = 3;
  optional string recursiveReadOnly = 4;
}

message VolumeProjection {
  optional SecretProjection secret = 1;
  optional DownwardAPIProjection downwardAPI = 2;
  optional ConfigMapProjection configMap = 3;
  optional ServiceAccountTokenProjection serviceAccountToken = 4;
  optional ClusterTrustBundleProjection clusterTrustBundle = 5;
}

message VolumeResourceRequirements {
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> limits = 1;
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> requests = 2;
}

message VolumeSource {
  optional HostPathVolumeSource hostPath = 1;
  optional EmptyDirVolumeSource emptyDir = 2;
  optional SecretVolumeSource secret = 6;
  optional NFSVolumeSource nfs = 7;
  optional PersistentVolumeClaimVolumeSource persistentVolumeClaim = 10;
  optional DownwardAPIVolumeSource downwardAPI = 16;
  optional ConfigMapVolumeSource configMap = 19;
  optional ProjectedVolumeSource projected = 26;
  optional CSIVolumeSource csi = 28;
  optional EphemeralVolumeSource ephemeral = 29;
  optional ImageVolumeSource image = 30;
}

message WeightedPodAffinityTerm {
  optional int32 weight = 1;
  optional PodAffinityTerm podAffinityTerm = 2;
}

message WindowsSecurityContextOptions {
  optional string gmsaCredentialSpecName = 1;
  optional string gmsaCredentialSpec = 2;
  optional string runAsUserName = 3;
  optional bool hostProcess = 4;
}
${coreV1NodeMessages}`,
};
