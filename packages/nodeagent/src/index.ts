/**
 * @orchard/nodeagent — the agent that runs on every node (spec doc 2 §1 item 3, §2.8, §2.9): it
 * registers its Node, keeps the node's Lease renewed and posts node status, and reads its
 * configuration from a file and a drop-in directory.
 *
 *   const agent = startNodeAgent({ client, flavor, nodeName: 'n1', machine: hostMachine('/var/lib/nodeagent') });
 *   await agent.registered;
 *   await agent.stop();
 */

export type { NodeAgent, NodeAgentOptions } from './agent.js';
export { startNodeAgent } from './agent.js';
export type { Backoff, BackoffSettings } from './backoff.js';
export { defaultBackoff, exponentialBackoff } from './backoff.js';
export type { AgentResponse, CheckpointHandlerOptions } from './checkpoint/checkpoint.js';
export {
  checkpointArchivePath,
  handleCheckpoint,
  parseTimeoutParameter,
  podFullName,
  runningContainerId,
} from './checkpoint/checkpoint.js';
export type {
  CheckpointContainerRequest,
  CriRuntimeClient,
  CriRuntimeClientOptions,
} from './checkpoint/cri.js';
export {
  CriError,
  codeName,
  connectCriRuntime,
  criProtoPath,
  criTarget,
  defaultContainerRuntimeEndpoint,
  defaultRuntimeRequestTimeoutMs,
} from './checkpoint/cri.js';
export type {
  AgentRequestAttributes,
  AuthorizationOutcome,
  DelegatedAuthOptions,
  RequestUser,
  ReviewCaches,
  ReviewCacheTtls,
} from './checkpoint/delegated-auth.js';
export {
  authenticateRequest,
  authorizationMessage,
  authorizeRequest,
  createReviewCaches,
  requestAttributes,
} from './checkpoint/delegated-auth.js';
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
export type { TarEntry } from './checkpoint/tar.js';
export { tarArchive, tarEntries } from './checkpoint/tar.js';
export type { NodeCondition, PressureThresholds, Threshold } from './conditions.js';
export {
  belowThreshold,
  computeConditions,
  conditionsChanged,
  conditionVerdicts,
  defaultPressureThresholds,
  parseThreshold,
  thresholdSignals,
} from './conditions.js';
export type { NodeAgentConfig, NodeAgentConfigFile } from './config.js';
export {
  configDefaults,
  configTypeOf,
  dropInFiles,
  durationMs,
  loadNodeAgentConfig,
  maxConfigFileBytes,
  mergeConfig,
  NodeAgentConfigError,
  readConfigFile,
} from './config.js';
export type { FakeNodes, FakeNodesOptions } from './fake-nodes.js';
export {
  fakeNodeMachine,
  impersonatingClient,
  nodesGroup,
  nodeUserName,
  startFakeNodes,
} from './fake-nodes.js';
export type { RootLayout } from './layout.js';
export { acquireLock, defaultLockFile, defaultRootDir, ensureRootLayout, LockHeldError } from './layout.js';
export type { HeartbeatEvent, LeaseLoop, LeaseLoopOptions } from './lease.js';
export { startLeaseLoop } from './lease.js';
export type { MachineInfo, MachineProbe, MachineSignals, NodeAddress } from './machine.js';
export { hostMachine, meminfoBytes, osReleasePrettyName } from './machine.js';
export type { NodeShape, NodeTopology } from './node-object.js';
export {
  agentVersion,
  nodeAddresses,
  nodeLabelDomain,
  nodeLabels,
  nodeResources,
  nodeStatus,
  registrationObject,
} from './node-object.js';
export type { SeccompProfile } from './seccomp.js';
export {
  CreateContainerError,
  loadLocalhostProfile,
  maxSeccompProfileBytes,
  resolveSeccompProfile,
  seccompActions,
  validateSeccompProfile,
} from './seccomp.js';
export type { Watchdog, WatchdogOptions } from './watchdog.js';
export { startWatchdog, systemdNotify, WatchdogError, watchdogIntervalMs } from './watchdog.js';
