/**
 * Upstream's `ValidatePodSpec` for the fields every workload's pod template shares, with
 * upstream's field paths and messages (k8s.io/kubernetes pkg/apis/core/validation): containers
 * required, names as DNS-1123 labels and unique across all container lists, images required,
 * container ports, protocols, restart and DNS policies, requests within limits.
 */
import {
  fieldErrors,
  isDns1123Label,
  isValidPortName,
  isValidPortNum,
  type StatusCause,
} from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import { quantityOf } from '../quantity-of.js';

export const restartPolicies = ['Always', 'OnFailure', 'Never'] as const;
const dnsPolicies = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'] as const;
export const protocols = ['SCTP', 'TCP', 'UDP'] as const;

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Container ports: `containerPort` required and a valid number, names valid and unique. */
function validateContainerPorts(ports: unknown, path: string, seenNames: Set<string>): StatusCause[] {
  const causes: StatusCause[] = [];
  list(ports).forEach((p, i) => {
    if (!isJsonObject(p)) return;
    const at = `${path}[${i}]`;
    if (typeof p.name === 'string' && p.name !== '') {
      for (const msg of isValidPortName(p.name)) causes.push(fieldErrors.invalid(`${at}.name`, p.name, msg));
      if (seenNames.has(p.name)) causes.push(fieldErrors.duplicate(`${at}.name`, p.name));
      seenNames.add(p.name);
    }
    if (p.containerPort === undefined || p.containerPort === 0)
      causes.push(fieldErrors.required(`${at}.containerPort`));
    else if (typeof p.containerPort === 'number')
      for (const msg of isValidPortNum(p.containerPort))
        causes.push(fieldErrors.invalid(`${at}.containerPort`, p.containerPort, msg));
    if (typeof p.hostPort === 'number' && p.hostPort !== 0)
      for (const msg of isValidPortNum(p.hostPort))
        causes.push(fieldErrors.invalid(`${at}.hostPort`, p.hostPort, msg));
    if (p.protocol !== undefined && !(protocols as readonly unknown[]).includes(p.protocol))
      causes.push(fieldErrors.notSupported(`${at}.protocol`, p.protocol, protocols));
  });
  return causes;
}

/** Each resource's request must not exceed its limit (upstream `ValidateResourceRequirements`). */
function validateResources(resources: unknown, path: string): StatusCause[] {
  if (!isJsonObject(resources) || !isJsonObject(resources.requests) || !isJsonObject(resources.limits))
    return [];
  const causes: StatusCause[] = [];
  for (const name of Object.keys(resources.requests)) {
    const request = quantityOf(resources.requests[name]);
    const limit = quantityOf(resources.limits[name]);
    if (request === undefined || limit === undefined || request.cmp(limit) <= 0) continue;
    causes.push(
      fieldErrors.invalid(
        `${path}.requests`,
        request.toString(),
        `must be less than or equal to ${name} limit of ${limit.toString()}`,
      ),
    );
  }
  return causes;
}

function validateContainers(
  containers: unknown,
  path: string,
  names: Set<string>,
  portNames: Set<string>,
  requireImage: boolean,
): StatusCause[] {
  const causes: StatusCause[] = [];
  list(containers).forEach((c, i) => {
    if (!isJsonObject(c)) return;
    const at = `${path}[${i}]`;
    if (typeof c.name !== 'string' || c.name === '') causes.push(fieldErrors.required(`${at}.name`));
    else {
      for (const msg of isDns1123Label(c.name)) causes.push(fieldErrors.invalid(`${at}.name`, c.name, msg));
      if (names.has(c.name)) causes.push(fieldErrors.duplicate(`${at}.name`, c.name));
      names.add(c.name);
    }
    if (requireImage && (typeof c.image !== 'string' || c.image.trim() === ''))
      causes.push(fieldErrors.required(`${at}.image`));
    causes.push(...validateContainerPorts(c.ports, `${at}.ports`, portNames));
    causes.push(...validateResources(c.resources, `${at}.resources`));
  });
  return causes;
}

/**
 * Validates a pod spec at `path` (`spec` of a Pod, `spec.template.spec` of a workload).
 * `requireImage`: a Pod needs images; a workload template too (upstream requires them for both;
 * only a pod template object of its own may omit them).
 */
export function validatePodSpec(spec: unknown, path: string, requireImage = true): StatusCause[] {
  if (!isJsonObject(spec)) return [fieldErrors.required(path)];
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  const portNames = new Set<string>();
  if (list(spec.containers).length === 0) causes.push(fieldErrors.required(`${path}.containers`));
  causes.push(...validateContainers(spec.containers, `${path}.containers`, names, portNames, requireImage));
  causes.push(
    ...validateContainers(spec.initContainers, `${path}.initContainers`, names, new Set(), requireImage),
  );
  if (
    spec.restartPolicy !== undefined &&
    !(restartPolicies as readonly unknown[]).includes(spec.restartPolicy)
  )
    causes.push(fieldErrors.notSupported(`${path}.restartPolicy`, spec.restartPolicy, restartPolicies));
  if (spec.dnsPolicy !== undefined && !(dnsPolicies as readonly unknown[]).includes(spec.dnsPolicy))
    causes.push(fieldErrors.notSupported(`${path}.dnsPolicy`, spec.dnsPolicy, dnsPolicies));
  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0)
    causes.push(
      fieldErrors.invalid(
        `${path}.terminationGracePeriodSeconds`,
        spec.terminationGracePeriodSeconds,
        'must be greater than or equal to 0',
      ),
    );
  if (typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds <= 0)
    causes.push(
      fieldErrors.invalid(
        `${path}.activeDeadlineSeconds`,
        spec.activeDeadlineSeconds,
        'must be between 1 and 2147483647, inclusive',
      ),
    );
  return causes;
}
