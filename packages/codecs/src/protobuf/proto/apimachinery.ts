/**
 * The k8s.io/apimachinery protobuf packages Orchard speaks, with the upstream field numbers
 * (k8s.io/apimachinery generated.proto). These strings are the ONE source of the definitions:
 * protobufjs parses them at runtime and the protoc cross-check test writes them to disk, so the
 * two cannot drift. Comments and gogo options of upstream are left out; names and numbers are not.
 */
import type { ProtoFile } from './proto-file.js';

export const runtimeProto: ProtoFile = {
  path: 'k8s.io/apimachinery/pkg/runtime/generated.proto',
  text: `syntax = "proto2";

package k8s.io.apimachinery.pkg.runtime;

// RawExtension holds an embedded object: JSON bytes, or for watch events the
// Protobuf-encoded (prefixed Unknown) object.
message RawExtension {
  optional bytes raw = 1;
}

message TypeMeta {
  optional string apiVersion = 1;
  optional string kind = 2;
}

// The envelope of every Protobuf body after the 4-byte prefix.
message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}
`,
};

export const intstrProto: ProtoFile = {
  path: 'k8s.io/apimachinery/pkg/util/intstr/generated.proto',
  text: `syntax = "proto2";

package k8s.io.apimachinery.pkg.util.intstr;

message IntOrString {
  optional int64 type = 1;
  optional int32 intVal = 2;
  optional string strVal = 3;
}
`,
};

export const resourceProto: ProtoFile = {
  path: 'k8s.io/apimachinery/pkg/api/resource/generated.proto',
  text: `syntax = "proto2";

package k8s.io.apimachinery.pkg.api.resource;

message Quantity {
  optional string string = 1;
}
`,
};

export const metaV1Proto: ProtoFile = {
  path: 'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto',
  text: `syntax = "proto2";

package k8s.io.apimachinery.pkg.apis.meta.v1;

import "k8s.io/apimachinery/pkg/runtime/generated.proto";

message Time {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}

message MicroTime {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}


message FieldsV1 {
  optional bytes Raw = 1;
}

message ManagedFieldsEntry {
  optional string manager = 1;
  optional string operation = 2;
  optional string apiVersion = 3;
  optional Time time = 4;
  optional string fieldsType = 6;
  optional FieldsV1 fieldsV1 = 7;
  optional string subresource = 8;
}

message OwnerReference {
  optional string apiVersion = 5;
  optional string kind = 1;
  optional string name = 3;
  optional string uid = 4;
  optional bool controller = 6;
  optional bool blockOwnerDeletion = 7;
}

message ObjectMeta {
  optional string name = 1;
  optional string generateName = 2;
  optional string namespace = 3;
  optional string selfLink = 4;
  optional string uid = 5;
  optional string resourceVersion = 6;
  optional int64 generation = 7;
  optional Time creationTimestamp = 8;
  optional Time deletionTimestamp = 9;
  optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11;
  map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13;
  repeated string finalizers = 14;
  repeated ManagedFieldsEntry managedFields = 17;
}

message ListMeta {
  optional string selfLink = 1;
  optional string resourceVersion = 2;
  optional string continue = 3;
  optional int64 remainingItemCount = 4;
}

message LabelSelector {
  map<string, string> matchLabels = 1;
  repeated LabelSelectorRequirement matchExpressions = 2;
}

message LabelSelectorRequirement {
  optional string key = 1;
  optional string operator = 2;
  repeated string values = 3;
}

message FieldSelectorRequirement {
  optional string key = 1;
  optional string operator = 2;
  repeated string values = 3;
}

message Condition {
  optional string type = 1;
  optional string status = 2;
  optional int64 observedGeneration = 3;
  optional Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}

message Preconditions {
  optional string uid = 1;
  optional string resourceVersion = 2;
}

message DeleteOptions {
  optional int64 gracePeriodSeconds = 1;
  optional Preconditions preconditions = 2;
  optional bool orphanDependents = 3;
  optional string propagationPolicy = 4;
  repeated string dryRun = 5;
  optional bool ignoreStoreReadErrorWithClusterBreakingPotential = 6;
}

message PartialObjectMetadata {
  optional ObjectMeta metadata = 1;
}

message PartialObjectMetadataList {
  optional ListMeta metadata = 1;
  repeated PartialObjectMetadata items = 2;
}

message Status {
  optional ListMeta metadata = 1;
  optional string status = 2;
  optional string message = 3;
  optional string reason = 4;
  optional StatusDetails details = 5;
  optional int32 code = 6;
}

message StatusDetails {
  optional string name = 1;
  optional string group = 2;
  optional string kind = 3;
  optional string uid = 6;
  repeated StatusCause causes = 4;
  optional int32 retryAfterSeconds = 5;
}

message StatusCause {
  optional string reason = 1;
  optional string message = 2;
  optional string field = 3;
}

message WatchEvent {
  optional string type = 1;
  optional k8s.io.apimachinery.pkg.runtime.RawExtension object = 2;
}
`,
};
