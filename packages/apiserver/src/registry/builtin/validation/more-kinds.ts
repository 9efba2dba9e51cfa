/**
 * Upstream's validation (pkg/apis/apps/validation, pkg/apis/core/validation,
 * pkg/apis/discovery/validation) for StatefulSet, DaemonSet, ReplicationController,
 * PersistentVolumeClaim, PersistentVolume, Endpoints and EndpointSlice: the required fields and
 * immutable fields users meet, with upstream's paths and messages.
 */
import { fieldErrors, isValidPortNum, type StatusCause } from '@orchard/meta';
import { isJsonObject, jsonEqual } from '@orchard/meta/internal';
import { validatePodSpec } from './pod-spec.js';
import { goLabelSelector, validateWorkloadSpec, validateWorkloadSpecUpdate } from './workload.js';

type Obj = Record<string, unknown>;
const spec = (o: Obj): Obj => (isJsonObject(o.spec) ? o.spec : {});

/** ValidateStatefulSetSpec: the workload rules, policies, and an update strategy it knows. */
export function validateStatefulSet(set: Obj): StatusCause[] {
  const causes = validateWorkloadSpec(set.spec, 'StatefulSet');
  const s = spec(set);
  if (
    s.podManagementPolicy !== undefined &&
    s.podManagementPolicy !== 'OrderedReady' &&
    s.podManagementPolicy !== 'Parallel'
  )
    causes.push(
      fieldErrors.notSupported('spec.podManagementPolicy', s.podManagementPolicy, [
        'OrderedReady',
        'Parallel',
      ]),
    );
  const strategy = isJsonObject(s.updateStrategy) ? s.updateStrategy : {};
  if (strategy.type !== undefined && strategy.type !== 'RollingUpdate' && strategy.type !== 'OnDelete')
    causes.push(
      fieldErrors.notSupported('spec.updateStrategy.type', strategy.type, ['OnDelete', 'RollingUpdate']),
    );
  const partition = isJsonObject(strategy.rollingUpdate) ? strategy.rollingUpdate.partition : undefined;
  if (typeof partition === 'number' && partition < 0)
    causes.push(
      fieldErrors.invalid(
        'spec.updateStrategy.rollingUpdate.partition',
        partition,
        'must be greater than or equal to 0',
      ),
    );
  return causes;
}

const statefulSetMutable = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

/** ValidateStatefulSetUpdate: only the fields upstream lists may change. */
export function validateStatefulSetUpdate(set: Obj, old: Obj): StatusCause[] {
  const causes = validateStatefulSet(set);
  const strip = (o: Obj) =>
    Object.fromEntries(Object.entries(spec(o)).filter(([k]) => !statefulSetMutable.includes(k)));
  if (!jsonEqual(strip(set), strip(old)))
    causes.push(
      fieldErrors.forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  return causes;
}

/** ValidateDaemonSet(Update): the workload rules; the selector never changes. */
export function validateDaemonSet(set: Obj, old?: Obj): StatusCause[] {
  return old
    ? validateWorkloadSpecUpdate(set.spec, old.spec, 'DaemonSet')
    : validateWorkloadSpec(set.spec, 'DaemonSet');
}

/** ValidateReplicationControllerSpec: a selector (a label map) that the template's labels match. */
export function validateReplicationController(rc: Obj): StatusCause[] {
  const s = spec(rc);
  const causes: StatusCause[] = [];
  if (typeof s.replicas === 'number' && s.replicas < 0)
    causes.push(fieldErrors.invalid('spec.replicas', s.replicas, 'must be greater than or equal to 0'));
  const selector = isJsonObject(s.selector) ? s.selector : {};
  if (Object.keys(selector).length === 0) causes.push(fieldErrors.required('spec.selector'));
  const template = isJsonObject(s.template) ? s.template : undefined;
  if (!template) causes.push(fieldErrors.required('spec.template'));
  else {
    const labels =
      isJsonObject(template.metadata) && isJsonObject(template.metadata.labels)
        ? template.metadata.labels
        : {};
    if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labels[k] === v))
      causes.push(
        fieldErrors.invalid(
          'spec.template.metadata.labels',
          goLabelSelector({ matchLabels: labels }),
          '`selector` does not match template `labels`',
        ),
      );
    const podSpec = isJsonObject(template.spec) ? template.spec : undefined;
    causes.push(...validatePodSpec(podSpec, 'spec.template.spec'));
    if (podSpec?.restartPolicy !== undefined && podSpec.restartPolicy !== 'Always')
      causes.push(
        fieldErrors.notSupported('spec.template.spec.restartPolicy', podSpec.restartPolicy, ['Always']),
      );
  }
  return causes;
}

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

function validateAccessModes(modes: unknown, path: string): StatusCause[] {
  const list = Array.isArray(modes) ? modes : [];
  if (list.length === 0) return [fieldErrors.required(path, 'at least 1 access mode is required')];
  return list
    .filter((m) => !accessModes.includes(m as string))
    .map((m) => fieldErrors.notSupported(path, m, accessModes));
}

/** ValidatePersistentVolumeClaim: access modes and a storage request. */
export function validatePersistentVolumeClaim(claim: Obj): StatusCause[] {
  const s = spec(claim);
  const causes = validateAccessModes(s.accessModes, 'spec.accessModes');
  const requests =
    isJsonObject(s.resources) && isJsonObject(s.resources.requests) ? s.resources.requests : {};
  if (requests.storage === undefined) causes.push(fieldErrors.required('spec.resources[storage]'));
  return causes;
}

/** ValidatePersistentVolumeClaimUpdate: the spec is immutable but for requests, the class and a first binding. */
export function validatePersistentVolumeClaimUpdate(claim: Obj, old: Obj): StatusCause[] {
  const causes = validatePersistentVolumeClaim(claim);
  const strip = (o: Obj) => {
    const s: Obj = { ...spec(o) };
    delete s.resources;
    delete s.volumeAttributesClassName;
    return s;
  };
  const next = strip(claim);
  const before = strip(old);
  if (before.volumeName === undefined || before.volumeName === '') {
    // A first binding may set volumeName.
    delete next.volumeName;
    delete before.volumeName;
  }
  if (!jsonEqual(next, before))
    causes.push(
      fieldErrors.forbidden(
        'spec',
        'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ),
    );
  return causes;
}

const volumeFields = new Set([
  'capacity',
  'accessModes',
  'claimRef',
  'persistentVolumeReclaimPolicy',
  'storageClassName',
  'mountOptions',
  'volumeMode',
  'nodeAffinity',
  'volumeAttributesClassName',
]);

/** ValidatePersistentVolume: a storage capacity, access modes, exactly one volume source. */
export function validatePersistentVolume(volume: Obj): StatusCause[] {
  const s = spec(volume);
  const causes = validateAccessModes(s.accessModes, 'spec.accessModes');
  const capacity = isJsonObject(s.capacity) ? s.capacity : {};
  if (Object.keys(capacity).length === 0) causes.push(fieldErrors.required('spec.capacity'));
  else if (capacity.storage === undefined) causes.push(fieldErrors.required('spec.capacity', 'storage'));
  const sources = Object.keys(s).filter((k) => !volumeFields.has(k) && s[k] !== null && s[k] !== undefined);
  if (sources.length === 0) causes.push(fieldErrors.required('spec', 'must specify a volume type'));
  else if (sources.length > 1)
    causes.push(fieldErrors.forbidden(`spec.${sources[1]}`, 'may not specify more than 1 volume type'));
  return causes;
}

function validatePorts(ports: unknown, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  (Array.isArray(ports) ? ports : []).forEach((p, i) => {
    if (!isJsonObject(p)) return;
    if (typeof p.port === 'number')
      for (const msg of isValidPortNum(p.port))
        causes.push(fieldErrors.invalid(`${path}[${i}].port`, p.port, msg));
  });
  return causes;
}

/** ValidateEndpoints: each address has an IP, each port is a valid number. */
export function validateEndpoints(endpoints: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  (Array.isArray(endpoints.subsets) ? endpoints.subsets : []).forEach((subset, i) => {
    if (!isJsonObject(subset)) return;
    const path = `subsets[${i}]`;
    for (const list of ['addresses', 'notReadyAddresses'])
      (Array.isArray(subset[list]) ? (subset[list] as unknown[]) : []).forEach((a, j) => {
        if (isJsonObject(a) && (typeof a.ip !== 'string' || a.ip === ''))
          causes.push(fieldErrors.required(`${path}.${list}[${j}].ip`));
      });
    causes.push(...validatePorts(subset.ports, `${path}.ports`));
  });
  return causes;
}

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];

/** ValidateEndpointSlice(Update): an address type (immutable), endpoints with addresses, valid ports. */
export function validateEndpointSlice(slice: Obj, old?: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  if (slice.addressType === undefined || slice.addressType === '')
    causes.push(fieldErrors.required('addressType'));
  else if (!addressTypes.includes(slice.addressType as string))
    causes.push(fieldErrors.notSupported('addressType', slice.addressType, addressTypes));
  if (old && !jsonEqual(slice.addressType, old.addressType))
    causes.push(fieldErrors.invalid('addressType', slice.addressType, 'field is immutable'));
  (Array.isArray(slice.endpoints) ? slice.endpoints : []).forEach((e, i) => {
    if (!isJsonObject(e)) return;
    const addresses = Array.isArray(e.addresses) ? e.addresses : [];
    if (addresses.length === 0)
      causes.push(fieldErrors.required(`endpoints[${i}].addresses`, 'must contain at least 1 address'));
  });
  causes.push(...validatePorts(slice.ports, 'ports'));
  return causes;
}
