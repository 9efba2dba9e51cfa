/** k8s.io/api/networking/v1 (Ingress), upstream field numbers. See apimachinery.ts. */
import type { ProtoFile } from './proto-file.js';

export const networkingV1Proto: ProtoFile = {
  path: 'k8s.io/api/networking/v1/generated.proto',
  text: `syntax = "proto2";

package k8s.io.api.networking.v1;

import "k8s.io/api/core/v1/generated.proto";
import "k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto";

message HTTPIngressPath {
  optional string path = 1;
  optional string pathType = 3;
  optional IngressBackend backend = 2;
}

message HTTPIngressRuleValue {
  repeated HTTPIngressPath paths = 1;
}

message Ingress {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional IngressSpec spec = 2;
  optional IngressStatus status = 3;
}

message IngressBackend {
  optional IngressServiceBackend service = 4;
  optional k8s.io.api.core.v1.TypedLocalObjectReference resource = 3;
}

message IngressList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Ingress items = 2;
}

message IngressLoadBalancerIngress {
  optional string ip = 1;
  optional string hostname = 2;
  repeated IngressPortStatus ports = 4;
}

message IngressLoadBalancerStatus {
  repeated IngressLoadBalancerIngress ingress = 1;
}

message IngressPortStatus {
  optional int32 port = 1;
  optional string protocol = 2;
  optional string error = 3;
}

message IngressRule {
  optional string host = 1;
  optional IngressRuleValue ingressRuleValue = 2;
}

message IngressRuleValue {
  optional HTTPIngressRuleValue http = 1;
}

message IngressServiceBackend {
  optional string name = 1;
  optional ServiceBackendPort port = 2;
}

message IngressSpec {
  optional string ingressClassName = 4;
  optional IngressBackend defaultBackend = 1;
  repeated IngressTLS tls = 2;
  repeated IngressRule rules = 3;
}

message IngressStatus {
  optional IngressLoadBalancerStatus loadBalancer = 1;
}

message IngressTLS {
  repeated string hosts = 1;
  optional string secretName = 2;
}

message ServiceBackendPort {
  optional string name = 1;
  optional int32 number = 2;
}
`,
};
