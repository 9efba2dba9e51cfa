/**
 * @orchard/nodeagent — the agent that runs on every node (spec doc 2 §1 item 3, §2.8, §2.9): it
 * registers its Node, keeps the node's Lease renewed and posts node status, and reads its
 * configuration from a file and a drop-in directory. The pieces it is built from (condition verdicts,
 * the checkpoint handler and its tar writer, request attributes, config merging) stay inside the
 * package: no other Orchard package needs them, so there is no `internal` subpath.
 *
 *   const agent = startNodeAgent({ client, flavor, nodeName: 'n1', machine: hostMachine('/var/lib/nodeagent') });
 *   await agent.registered;
 *   await agent.stop();
 */

export type { NodeAgent, NodeAgentOptions } from './agent.js';
export { startNodeAgent } from './agent.js';
export type { Backoff, BackoffSettings } from './backoff.js';
export { defaultBackoff, exponentialBackoff } from './backoff.js';
export type {
  CheckpointContainerRequest,
  CriRuntimeClient,
  CriRuntimeClientOptions,
} from './checkpoint/cri.js';
export {
  CriError,
  connectCriRuntime,
  defaultContainerRuntimeEndpoint,
  defaultRuntimeRequestTimeoutMs,
} from './checkpoint/cri.js';
export type {
  DelegatedAuthOptions,
  RequestUser,
  ReviewCaches,
  ReviewCacheTtls,
} from './checkpoint/delegated-auth.js';
export { createReviewCaches } from './checkpoint/delegated-auth.js';
export type {
  FakeCriRuntime,
  FakeCriRuntimeOptions,
  FakeRuntimeCall,
  FakeRuntimeMode,
} from './checkpoint/fake-runtime.js';
export { startFakeCriRuntime } from './checkpoint/fake-runtime.js';
export type { AgentServer, AgentServerOptions } from './checkpoint/server.js';
export { containerCheckpointGate, defaultAgentPort, startAgentServer } from './checkpoint/server.js';
export type { ServingCert, ServingCertOptions } from './checkpoint/serving-cert.js';
export { loadOrCreateServingCert } from './checkpoint/serving-cert.js';
export type { NodeCondition, PressureThresholds, Threshold } from './conditions.js';
export { defaultPressureThresholds, parseThreshold } from './conditions.js';
export type { NodeAgentConfig, NodeAgentConfigFile } from './config.js';
export { configDefaults, loadNodeAgentConfig, maxConfigFileBytes, NodeAgentConfigError } from './config.js';
export type { FakeNodes, FakeNodesOptions } from './fake-nodes.js';
export { fakeNodeMachine, startFakeNodes } from './fake-nodes.js';
export type { RootLayout } from './layout.js';
export { acquireLock, defaultLockFile, defaultRootDir, ensureRootLayout, LockHeldError } from './layout.js';
export type { HeartbeatEvent, LeaseLoop, LeaseLoopOptions } from './lease.js';
export { startLeaseLoop } from './lease.js';
export type { MachineInfo, MachineProbe, MachineSignals, NodeAddress } from './machine.js';
export { hostMachine } from './machine.js';
export type { NodeShape, NodeTopology } from './node-object.js';
export { agentVersion } from './node-object.js';
export type { SeccompProfile } from './seccomp.js';
export { CreateContainerError, maxSeccompProfileBytes } from './seccomp.js';
export type { Watchdog, WatchdogOptions } from './watchdog.js';
export { startWatchdog, WatchdogError, watchdogIntervalMs } from './watchdog.js';
