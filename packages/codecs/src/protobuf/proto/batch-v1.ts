/** k8s.io/api/batch/v1 (Job, CronJob), upstream field numbers. See apimachinery.ts. */
import type { ProtoFile } from './proto-file.js';

export const batchV1Proto: ProtoFile = {
  path: 'k8s.io/api/batch/v1/generated.proto',
  text: `syntax = "proto2";

package k8s.io.api.batch.v1;

import "k8s.io/api/core/v1/generated.proto";
import "k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto";

message CronJob {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional CronJobSpec spec = 2;
  optional CronJobStatus status = 3;
}

message CronJobList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated CronJob items = 2;
}

message CronJobSpec {
  optional string schedule = 1;
  optional string timeZone = 8;
  optional int64 startingDeadlineSeconds = 2;
  optional string concurrencyPolicy = 3;
  optional bool suspend = 4;
  optional JobTemplateSpec jobTemplate = 5;
  optional int32 successfulJobsHistoryLimit = 6;
  optional int32 failedJobsHistoryLimit = 7;
}

message CronJobStatus {
  repeated k8s.io.api.core.v1.ObjectReference active = 1;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastScheduleTime = 4;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastSuccessfulTime = 5;
}

message Job {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional JobSpec spec = 2;
  optional JobStatus status = 3;
}

message JobCondition {
  optional string type = 1;
  optional string status = 2;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastProbeTime = 3;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}

message JobList {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1;
  repeated Job items = 2;
}

message JobSpec {
  optional int32 parallelism = 1;
  optional int32 completions = 2;
  optional int64 activeDeadlineSeconds = 3;
  optional PodFailurePolicy podFailurePolicy = 11;
  optional SuccessPolicy successPolicy = 16;
  optional int32 backoffLimit = 7;
  optional int32 backoffLimitPerIndex = 12;
  optional int32 maxFailedIndexes = 13;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 4;
  optional bool manualSelector = 5;
  optional k8s.io.api.core.v1.PodTemplateSpec template = 6;
  optional int32 ttlSecondsAfterFinished = 8;
  optional string completionMode = 9;
  optional bool suspend = 10;
  optional string podReplacementPolicy = 14;
  optional string managedBy = 15;
}

message JobStatus {
  repeated JobCondition conditions = 1;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time startTime = 2;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time completionTime = 3;
  optional int32 active = 4;
  optional int32 succeeded = 5;
  optional int32 failed = 6;
  optional int32 terminating = 11;
  optional string completedIndexes = 7;
  optional string failedIndexes = 10;
  optional UncountedTerminatedPods uncountedTerminatedPods = 8;
  optional int32 ready = 9;
}

message JobTemplateSpec {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional JobSpec spec = 2;
}

message PodFailurePolicy {
  repeated PodFailurePolicyRule rules = 1;
}

message PodFailurePolicyOnExitCodesRequirement {
  optional string containerName = 1;
  optional string operator = 2;
  repeated int32 values = 3;
}

message PodFailurePolicyOnPodConditionsPattern {
  optional string type = 1;
  optional string status = 2;
}

message PodFailurePolicyRule {
  optional string action = 1;
  optional PodFailurePolicyOnExitCodesRequirement onExitCodes = 2;
  repeated PodFailurePolicyOnPodConditionsPattern onPodConditions = 3;
}

message SuccessPolicy {
  repeated SuccessPolicyRule rules = 1;
}

message SuccessPolicyRule {
  optional string succeededIndexes = 1;
  optional int32 succeededCount = 2;
}

message UncountedTerminatedPods {
  repeated string succeeded = 1;
  repeated string failed = 2;
}
`,
};
