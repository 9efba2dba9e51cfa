/** k8s.io/api/authentication/v1, upstream field numbers. See apimachinery.ts. */
import type { ProtoFile } from './proto-file.js';

export const authenticationV1Proto: ProtoFile = {
  path: 'k8s.io/api/authentication/v1/generated.proto',
  text: `syntax = "proto2";

package k8s.io.api.authentication.v1;

import "k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto";

message BoundObjectReference {
  optional string kind = 1;
  optional string apiVersion = 2;
  optional string name = 3;
  optional string uid = 4;
}

message ExtraValue {
  repeated string items = 1;
}

message SelfSubjectReview {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional SelfSubjectReviewStatus status = 2;
}

message SelfSubjectReviewStatus {
  optional UserInfo userInfo = 1;
}

message TokenRequest {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional TokenRequestSpec spec = 2;
  optional TokenRequestStatus status = 3;
}

message TokenRequestSpec {
  repeated string audiences = 1;
  optional int64 expirationSeconds = 4;
  optional BoundObjectReference boundObjectRef = 3;
}

message TokenRequestStatus {
  optional string token = 1;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time expirationTimestamp = 2;
}

message TokenReview {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional TokenReviewSpec spec = 2;
  optional TokenReviewStatus status = 3;
}

message TokenReviewSpec {
  optional string token = 1;
  repeated string audiences = 2;
}

message TokenReviewStatus {
  optional bool authenticated = 1;
  optional UserInfo user = 2;
  repeated string audiences = 4;
  optional string error = 3;
}

message UserInfo {
  optional string username = 1;
  optional string uid = 2;
  repeated string groups = 3;
  map<string, ExtraValue> extra = 4;
}
`,
};
