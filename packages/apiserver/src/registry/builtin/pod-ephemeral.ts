/**
 * The `pods/<name>/ephemeralcontainers` sub-resource as upstream's
 * `podEphemeralContainersStrategy`: a write changes `spec.ephemeralContainers` and nothing else
 * (everything else is the stored pod's), each ephemeral container is validated as upstream's
 * `validateEphemeralContainers`, and existing ones may be neither removed nor changed.
 */
import {
  type ApiObject,
  fieldErrors,
  isDns1123Label,
  type StatusCause,
  type StoredObject,
} from '@orchard/meta';
import { isJsonObject, jsonEqual } from '@orchard/meta/internal';
import type { ResourceStrategy } from '../resource.js';

type Obj = Record<string, unknown>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isJsonObject) : []);
const podSpec = (o: ApiObject | StoredObject): Obj => (isJsonObject(o.spec) ? (o.spec as Obj) : {});

/** Fields a container may have that an ephemeral container may not (upstream's list). */
const forbiddenFields = [
  'ports',
  'lifecycle',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'resources',
  'resizePolicy',
  'restartPolicy',
] as const;

/** upstream `validateEphemeralContainers`: names, images, no ports/probes/resources, a real target. */
export function validateEphemeralContainers(spec: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const others = new Set(
    [...list(spec.containers), ...list(spec.initContainers)].map((c) => String(c.name ?? '')),
  );
  const seen = new Set<string>();
  list(spec.ephemeralContainers).forEach((ec, i) => {
    const at = `spec.ephemeralContainers[${i}]`;
    const name = typeof ec.name === 'string' ? ec.name : '';
    if (name === '') causes.push(fieldErrors.required(`${at}.name`));
    else {
      for (const msg of isDns1123Label(name)) causes.push(fieldErrors.invalid(`${at}.name`, name, msg));
      if (others.has(name) || seen.has(name)) causes.push(fieldErrors.duplicate(`${at}.name`, name));
      seen.add(name);
    }
    if (typeof ec.image !== 'string' || ec.image.trim() === '')
      causes.push(fieldErrors.required(`${at}.image`));
    for (const f of forbiddenFields)
      if (
        ec[f] !== undefined &&
        ec[f] !== null &&
        !(isJsonObject(ec[f]) && Object.keys(ec[f] as Obj).length === 0)
      )
        causes.push(fieldErrors.forbidden(`${at}.${f}`, 'cannot be set for an Ephemeral Container'));
    const target = ec.targetContainerName;
    if (typeof target === 'string' && target !== '' && !others.has(target))
      causes.push({
        reason: 'FieldValueNotFound',
        field: `${at}.targetContainerName`,
        message: `Not found: ${JSON.stringify(target)}`,
      });
  });
  return causes;
}

/** upstream `ValidatePodEphemeralContainersUpdate`'s rule: existing ephemeral containers stay as they are. */
function validateKept(spec: Obj, old: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const next = new Map(list(spec.ephemeralContainers).map((c) => [String(c.name ?? ''), c]));
  list(old.ephemeralContainers).forEach((prev, i) => {
    const name = String(prev.name ?? '');
    const now = next.get(name);
    if (!now)
      causes.push(
        fieldErrors.forbidden(
          'spec.ephemeralContainers',
          `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`,
        ),
      );
    else if (!jsonEqual(now, prev))
      causes.push(
        fieldErrors.forbidden(
          `spec.ephemeralContainers[${i}]`,
          `existing ephemeral containers ${JSON.stringify(name)} may not be changed\n`,
        ),
      );
  });
  return causes;
}

/**
 * Wraps the pods strategy: on the `ephemeralcontainers` sub-resource the written object becomes
 * the stored pod with only `spec.ephemeralContainers` taken from the request (then `inner`'s
 * defaults run), and validation is the ephemeral containers' own.
 */
export function withEphemeralContainers(inner: ResourceStrategy): ResourceStrategy {
  return {
    ...inner,
    prepareForUpdate(obj, old, ctx) {
      if (ctx.subresource === 'ephemeralcontainers') {
        const wanted = podSpec(obj).ephemeralContainers;
        const rv = obj.metadata?.resourceVersion;
        for (const k of Object.keys(obj)) delete obj[k];
        Object.assign(obj, structuredClone(old));
        const spec: Obj = isJsonObject(obj.spec) ? (obj.spec as Obj) : {};
        obj.spec = spec;
        if (wanted === undefined || wanted === null) delete spec.ephemeralContainers;
        else spec.ephemeralContainers = wanted;
        if (obj.metadata) {
          if (rv === undefined) delete obj.metadata.resourceVersion;
          else obj.metadata.resourceVersion = rv;
        }
      }
      inner.prepareForUpdate?.(obj, old, ctx);
    },
    validateUpdate(obj, old, ctx) {
      if (ctx.subresource === 'ephemeralcontainers')
        return [...validateEphemeralContainers(podSpec(obj)), ...validateKept(podSpec(obj), podSpec(old))];
      return inner.validateUpdate?.(obj, old, ctx) ?? [];
    },
  };
}
