/**
 * Every `.proto` source Orchard bundles, in dependency order. Parsed by protobufjs at runtime
 * (no file reads) and written to disk by the protoc cross-check test.
 */

import { apiextensionsV1Proto } from './apiextensions-v1.js';
import { intstrProto, metaV1Proto, resourceProto, runtimeProto } from './apimachinery.js';
import { appsV1Proto } from './apps-v1.js';
import { authenticationV1Proto } from './authentication-v1.js';
import { authorizationV1Proto } from './authorization-v1.js';
import { autoscalingV1Proto } from './autoscaling-v1.js';
import { batchV1Proto } from './batch-v1.js';
import { coordinationV1Proto } from './coordination-v1.js';
import { coreV1Proto } from './core-v1.js';
import { networkingV1Proto } from './networking-v1.js';
import type { ProtoFile } from './proto-file.js';
import { rbacV1Proto } from './rbac-v1.js';

export type { ProtoFile } from './proto-file.js';

/** The `.proto` definitions the Protobuf codec is built from. */
export const protoFiles: readonly ProtoFile[] = Object.freeze([
  runtimeProto,
  intstrProto,
  resourceProto,
  metaV1Proto,
  coreV1Proto,
  appsV1Proto,
  autoscalingV1Proto,
  batchV1Proto,
  networkingV1Proto,
  coordinationV1Proto,
  authenticationV1Proto,
  authorizationV1Proto,
  rbacV1Proto,
  apiextensionsV1Proto,
]);
