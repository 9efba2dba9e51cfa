/**
 * The Node messages of k8s.io/api/core/v1 (Node, NodeList, NodeSpec, Taint, NodeStatus and what it
 * holds) with the upstream field numbers; appended to core-v1.ts's one `.proto` file of the package.
 * Fields newer than the Node schema (podPreemptionPolicy, declaredFeatures) are left out.
 */
export const coreV1NodeMessages = `
message Node {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional NodeSpec spec = 2;
  optional NodeStatus status = 3;
}

message NodeList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Node items = 2;
}

message NodeSpec {
  optional string podCIDR = 1;
  repeated string podCIDRs = 7;
  optional string providerID = 3;
  optional bool unschedulable = 4;
  repeated Taint taints = 5;
  optional NodeConfigSource configSource = 6;
  optional string externalID = 2;
}

message Taint {
  optional string key = 1;
  optional string value = 2;
  optional string effect = 3;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time timeAdded = 4;
}

message NodeStatus {
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> capacity = 1;
  map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> allocatable = 2;
  optional string phase = 3;
  repeated NodeCondition conditions = 4;
  repeated NodeAddress addresses = 5;
  optional NodeDaemonEndpoints daemonEndpoints = 6;
  optional NodeSystemInfo nodeInfo = 7;
  repeated ContainerImage images = 8;
  repeated string volumesInUse = 9;
  repeated AttachedVolume volumesAttached = 10;
  optional NodeConfigStatus config = 11;
  repeated NodeRuntimeHandler runtimeHandlers = 12;
  optional NodeFeatures features = 13;
}

message NodeCondition {
  optional string type = 1;
  optional string status = 2;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastHeartbeatTime = 3;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}

message NodeAddress {
  optional string type = 1;
  optional string address = 2;
}

message NodeDaemonEndpoints {
  optional DaemonEndpoint kubeletEndpoint = 1;
}

message DaemonEndpoint {
  optional int32 Port = 1;
}

message NodeSystemInfo {
  optional string machineID = 1;
  optional string systemUUID = 2;
  optional string bootID = 3;
  optional string kernelVersion = 4;
  optional string osImage = 5;
  optional string containerRuntimeVersion = 6;
  optional string kubeletVersion = 7;
  optional string kubeProxyVersion = 8;
  optional string operatingSystem = 9;
  optional string architecture = 10;
  optional NodeSwapStatus swap = 11;
}

message NodeSwapStatus {
  optional int64 capacity = 1;
}

message ContainerImage {
  repeated string names = 1;
  optional int64 sizeBytes = 2;
}

message AttachedVolume {
  optional string name = 1;
  optional string devicePath = 2;
}

message NodeConfigSource {
  optional ConfigMapNodeConfigSource configMap = 2;
}

message ConfigMapNodeConfigSource {
  optional string namespace = 1;
  optional string name = 2;
  optional string uid = 3;
  optional string resourceVersion = 4;
  optional string kubeletConfigKey = 5;
}

message NodeConfigStatus {
  optional NodeConfigSource assigned = 1;
  optional NodeConfigSource active = 2;
  optional NodeConfigSource lastKnownGood = 3;
  optional string error = 4;
}

message NodeRuntimeHandler {
  optional string name = 1;
  optional NodeRuntimeHandlerFeatures features = 2;
}

message NodeRuntimeHandlerFeatures {
  optional bool recursiveReadOnlyMounts = 1;
  optional bool userNamespaces = 2;
}

message NodeFeatures {
  optional bool supplementalGroupsPolicy = 1;
}
`;
