/**
 * Upstream's `SetDefaults_*` functions for the built-in workload types (k8s.io/kubernetes
 * pkg/apis/core/v1/defaults.go and pkg/apis/apps/v1/defaults.go), the subset for the fields our
 * schemas hold. Upstream runs them on every decoded write body, so they are called from both
 * `prepareForCreate` and `prepareForUpdate`; each only fills what is unset, so running twice is a
 * no-op.
 */
import { getOwn, isJsonObject, setOwn } from '@orchard/meta/internal';

type Obj = Record<string, unknown>;

function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

function unset(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/** SetDefaults_Container's pull policy: `Always` for `:latest` or no tag, else `IfNotPresent`. */
function imagePullPolicy(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  const tag = colon < 0 ? '' : lastSegment.slice(colon + 1);
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function setProbeDefaults(probe: unknown): void {
  if (!isJsonObject(probe)) return;
  if (unset(probe.timeoutSeconds)) probe.timeoutSeconds = 1;
  if (unset(probe.periodSeconds)) probe.periodSeconds = 10;
  if (unset(probe.successThreshold)) probe.successThreshold = 1;
  if (unset(probe.failureThreshold)) probe.failureThreshold = 3;
  if (isJsonObject(probe.httpGet)) {
    if (unset(probe.httpGet.path)) probe.httpGet.path = '/';
    if (unset(probe.httpGet.scheme)) probe.httpGet.scheme = 'HTTP';
  }
}

function setContainerDefaults(c: Obj): void {
  if (unset(c.imagePullPolicy) && typeof c.image === 'string') c.imagePullPolicy = imagePullPolicy(c.image);
  if (unset(c.terminationMessagePath)) c.terminationMessagePath = '/dev/termination-log';
  if (unset(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File';
  for (const p of objects(c.ports)) if (unset(p.protocol)) p.protocol = 'TCP';
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) setProbeDefaults(probe);
  for (const e of objects(c.env)) {
    const fieldRef = isJsonObject(e.valueFrom) ? e.valueFrom.fieldRef : undefined;
    if (isJsonObject(fieldRef) && unset(fieldRef.apiVersion)) fieldRef.apiVersion = 'v1';
  }
}

const volumeSourcesWithMode = ['secret', 'configMap', 'downwardAPI', 'projected'] as const;

/** SetDefaults_PodSpec, SetDefaults_Container (all three container lists), SetDefaults_Volume. */
export function setPodSpecDefaults(spec: unknown): void {
  if (!isJsonObject(spec)) return;
  if (unset(spec.dnsPolicy)) spec.dnsPolicy = 'ClusterFirst';
  if (unset(spec.restartPolicy)) spec.restartPolicy = 'Always';
  if (unset(spec.securityContext)) spec.securityContext = {};
  if (unset(spec.terminationGracePeriodSeconds)) spec.terminationGracePeriodSeconds = 30;
  if (unset(spec.schedulerName)) spec.schedulerName = 'default-scheduler';
  for (const list of [spec.initContainers, spec.containers, spec.ephemeralContainers])
    for (const c of objects(list)) setContainerDefaults(c);
  for (const v of objects(spec.volumes)) {
    const hasSource = Object.keys(v).some((key) => key !== 'name');
    if (!hasSource) v.emptyDir = {};
    for (const source of volumeSourcesWithMode) {
      const s = v[source];
      if (isJsonObject(s) && unset(s.defaultMode)) s.defaultMode = 420;
    }
  }
}

/**
 * SetDefaults_Pod: the spec's defaults, `enableServiceLinks`, and a container's limits copied into
 * its requests where a request for that resource is missing (not on pod templates).
 */
export function setPodDefaults(pod: Obj): void {
  if (!isJsonObject(pod.spec)) return;
  setPodSpecDefaults(pod.spec);
  if (unset(pod.spec.enableServiceLinks)) pod.spec.enableServiceLinks = true;
  for (const list of [pod.spec.initContainers, pod.spec.containers])
    for (const c of objects(list)) copyLimitsIntoRequests(c);
}

function copyLimitsIntoRequests(container: Obj): void {
  const resources = container.resources;
  if (!isJsonObject(resources) || !isJsonObject(resources.limits)) return;
  const requests: Obj = isJsonObject(resources.requests) ? resources.requests : {};
  const missing = Object.keys(resources.limits).filter((name) => !Object.hasOwn(requests, name));
  if (missing.length === 0) return;
  for (const name of missing) setOwn(requests, name, getOwn(resources.limits, name));
  resources.requests = requests;
}

/** apps/v1 SetDefaults_Deployment plus the pod template's spec. */
export function setDeploymentDefaults(deployment: Obj): void {
  const spec = deployment.spec;
  if (!isJsonObject(spec)) return;
  if (unset(spec.replicas)) spec.replicas = 1;
  const strategy: Obj = isJsonObject(spec.strategy) ? spec.strategy : {};
  spec.strategy = strategy;
  if (unset(strategy.type)) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling: Obj = isJsonObject(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
    strategy.rollingUpdate = rolling;
    if (unset(rolling.maxUnavailable)) rolling.maxUnavailable = '25%';
    if (unset(rolling.maxSurge)) rolling.maxSurge = '25%';
  }
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  if (unset(spec.progressDeadlineSeconds)) spec.progressDeadlineSeconds = 600;
  if (isJsonObject(spec.template)) setPodSpecDefaults(spec.template.spec);
}

/** SetDefaults_Service (the fields that need no IP allocator). */
export function setServiceDefaults(service: Obj): void {
  const spec: Obj = isJsonObject(service.spec) ? service.spec : {};
  service.spec = spec;
  if (unset(spec.type)) spec.type = 'ClusterIP';
  if (unset(spec.sessionAffinity)) spec.sessionAffinity = 'None';
  for (const p of objects(spec.ports)) {
    if (unset(p.protocol)) p.protocol = 'TCP';
    if (unset(p.targetPort) || p.targetPort === 0) p.targetPort = p.port;
  }
  if (spec.type !== 'ExternalName' && unset(spec.internalTrafficPolicy))
    spec.internalTrafficPolicy = 'Cluster';
  const external = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
  if (external && unset(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && unset(spec.allocateLoadBalancerNodePorts))
    spec.allocateLoadBalancerNodePorts = true;
}

/** apps/v1 SetDefaults_ReplicaSet (and ReplicationController's): one replica, the template's defaults. */
export function setReplicaSetDefaults(replicaSet: Obj): void {
  const spec = replicaSet.spec;
  if (!isJsonObject(spec)) return;
  if (unset(spec.replicas)) spec.replicas = 1;
  if (isJsonObject(spec.template)) setPodSpecDefaults(spec.template.spec);
}
