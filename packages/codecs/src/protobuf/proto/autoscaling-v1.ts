/** k8s.io/api/autoscaling/v1 (Scale, the `/scale` sub-resource), upstream field numbers. See apimachinery.ts. */
import type { ProtoFile } from './proto-file.js';

export const autoscalingV1Proto: ProtoFile = {
  path: 'k8s.io/api/autoscaling/v1/generated.proto',
  text: `syntax = "proto2";

package k8s.io.api.autoscaling.v1;

import "k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto";

message Scale {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional ScaleSpec spec = 2;
  optional ScaleStatus status = 3;
}

message ScaleSpec {
  optional int32 replicas = 1;
}

message ScaleStatus {
  optional int32 replicas = 1;
  optional string selector = 2;
}
`,
};
