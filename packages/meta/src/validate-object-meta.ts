/**
 * Validation of `metadata` on create and update, as upstream's generic `ValidateObjectMeta` /
 * `ValidateObjectMetaUpdate`. Returns field causes; the server turns a non-empty list into a 422 with
 * `errors.invalid(group, kind, name, causes)`.
 */
import { type FieldCause, fieldErrors } from './field-errors.js';
import {
  isQualifiedName,
  isValidLabelValue,
  type NameValidator,
  nameIsDnsSubdomain,
  validateNamespaceName,
} from './names.js';
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from './object.js';

/** Upper bound of the summed byte length of all annotation keys and values (256 KiB). */
export const totalAnnotationSizeLimitBytes = 256 * 1024;
/** Longest `fieldManager` (and `managedFields[].manager`). */
export const fieldManagerMaxLength = 128;
/** Longest `managedFields[].subresource`. */
export const maxSubresourceNameLength = 256;
/** Upstream's message for a changed immutable field. */
export const fieldImmutableErrorMsg = 'field is immutable';
/** Upstream's message for a negative value where none is allowed. */
export const isNegativeErrorMsg = 'must be greater than or equal to 0';
/** The two finalizers that choose opposite garbage-collection policies. */
export const finalizerOrphanDependents = 'orphan';
/** The finalizer of foreground deletion. */
export const finalizerDeleteDependents = 'foregroundDeletion';

/**
 * What `validateObjectMeta` needs to know of the resource: namespaced or not, its name rule, the
 * message path and banned owner kinds.
 */
export interface ValidateObjectMetaOptions {
  /** Whether the resource is namespaced: namespace then required, else forbidden. */
  namespaced: boolean;
  /** How object names of this type are validated. Default: DNS-1123 subdomain. */
  nameValidator?: NameValidator;
  /** Path of the metadata in messages. Default `metadata`. */
  fieldPath?: string;
  /**
   * Kinds that may not be owners, as `group/version, Kind=...` (`formatGvk`). Default: core `v1` Event,
   * as upstream.
   */
  bannedOwners?: readonly string[];
}

const defaultBannedOwners = ['/v1, Kind=Event'];

/** Byte length of `s` in UTF-8, as Go's `len(string)`. */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

const sortedKeys = (m: Readonly<Record<string, string>> | null | undefined) => Object.keys(m ?? {}).sort();

/** Label keys must be qualified names, values label values. */
export function validateLabels(
  labels: Readonly<Record<string, string>> | null | undefined,
  fieldPath: string,
): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const k of sortedKeys(labels)) {
    for (const m of isQualifiedName(k)) causes.push(fieldErrors.invalid(fieldPath, k, m));
    const v = (labels as Record<string, string>)[k] as string;
    for (const m of isValidLabelValue(v)) causes.push(fieldErrors.invalid(fieldPath, v, m));
  }
  return causes;
}

/** Annotation keys are qualified names (case-insensitive); keys and values total at most 256 KiB. */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | null | undefined,
  fieldPath: string,
): FieldCause[] {
  const causes: FieldCause[] = [];
  let total = 0;
  for (const k of sortedKeys(annotations)) {
    for (const m of isQualifiedName(k.toLowerCase())) causes.push(fieldErrors.invalid(fieldPath, k, m));
    total += utf8Length(k) + utf8Length((annotations as Record<string, string>)[k] as string);
  }
  if (total > totalAnnotationSizeLimitBytes)
    causes.push(fieldErrors.tooLong(fieldPath, totalAnnotationSizeLimitBytes));
  return causes;
}

/** Finalizers are qualified names; `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(
  finalizers: readonly string[] | null | undefined,
  fieldPath: string,
): FieldCause[] {
  const causes: FieldCause[] = [];
  const list = finalizers ?? [];
  for (const f of list) for (const m of isQualifiedName(f)) causes.push(fieldErrors.invalid(fieldPath, f, m));
  if (list.includes(finalizerOrphanDependents) && list.includes(finalizerDeleteDependents)) {
    causes.push(
      fieldErrors.invalid(
        fieldPath,
        list,
        `finalizer ${finalizerOrphanDependents} and ${finalizerDeleteDependents} cannot be both set`,
      ),
    );
  }
  return causes;
}

/** Splits an apiVersion as upstream's `ParseGroupVersion`; undefined when it has more than one `/`. */
function splitApiVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (apiVersion === '') return { group: '', version: '' };
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  return undefined;
}

/**
 * apiVersion, kind, name and uid are required; at most one reference may be the controller (each extra
 * controller adds a cause naming the first one).
 */
export function validateOwnerReferences(
  refs: readonly OwnerReference[] | null | undefined,
  fieldPath: string,
  bannedOwners: readonly string[] = defaultBannedOwners,
): FieldCause[] {
  const causes: FieldCause[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    const gv = splitApiVersion(ref.apiVersion ?? '') ?? { group: '', version: '' };
    if (!gv.version)
      causes.push(
        fieldErrors.invalid(`${fieldPath}.apiVersion`, ref.apiVersion ?? '', 'version must not be empty'),
      );
    if (!ref.kind)
      causes.push(fieldErrors.invalid(`${fieldPath}.kind`, ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name)
      causes.push(fieldErrors.invalid(`${fieldPath}.name`, ref.name ?? '', 'name must not be empty'));
    if (!ref.uid)
      causes.push(fieldErrors.invalid(`${fieldPath}.uid`, ref.uid ?? '', 'uid must not be empty'));
    const gvk = `${gv.group}/${gv.version}, Kind=${ref.kind ?? ''}`;
    if (bannedOwners.includes(gvk))
      causes.push(fieldErrors.invalid(fieldPath, ref, `${gvk} is disallowed from being an owner`));
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController) {
        causes.push(
          fieldErrors.invalid(
            fieldPath,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else firstController = current;
    }
  }
  return causes;
}

/** A `fieldManager`: at most 128 characters, all printable. */
export function validateFieldManager(manager: string | undefined, fieldPath: string): FieldCause[] {
  const causes: FieldCause[] = [];
  if (manager === undefined) return causes;
  if (utf8Length(manager) > fieldManagerMaxLength)
    causes.push(fieldErrors.tooLong(fieldPath, fieldManagerMaxLength));
  let pos = 0;
  for (const ch of manager) {
    if (/[\p{C}\p{Zl}\p{Zp}]/u.test(ch) || (/\p{Zs}/u.test(ch) && ch !== ' ')) {
      const cp = (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
      causes.push(fieldErrors.invalid(fieldPath, manager, `invalid character U+${cp} (at position ${pos})`));
    }
    pos += utf8Length(ch);
  }
  return causes;
}

/** `managedFields` entries: operation `Apply`/`Update`, fieldsType `FieldsV1`, manager and subresource limits. */
export function validateManagedFields(
  entries: readonly ManagedFieldsEntry[] | null | undefined,
  fieldPath: string,
): FieldCause[] {
  const causes: FieldCause[] = [];
  (entries ?? []).forEach((e, i) => {
    const p = `${fieldPath}[${i}]`;
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      causes.push(fieldErrors.invalid(`${p}.operation`, e.operation ?? '', 'must be `Apply` or `Update`'));
    }
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') {
      causes.push(fieldErrors.invalid(`${p}.fieldsType`, e.fieldsType, 'must be `FieldsV1`'));
    }
    causes.push(...validateFieldManager(e.manager, `${p}.manager`));
    if (e.subresource && utf8Length(e.subresource) > maxSubresourceNameLength) {
      causes.push(fieldErrors.tooLong(`${p}.subresource`, maxSubresourceNameLength));
    }
  });
  return causes;
}

/**
 * Validates the metadata of an object being created. `name` is required unless `generateName` is set
 * (the server fills `name` from it before storing). Returns causes in upstream's order: generateName,
 * name, namespace, generation, labels, annotations, ownerReferences, finalizers, managedFields.
 */
export function validateObjectMeta(
  meta: ObjectMeta | null | undefined,
  options: ValidateObjectMetaOptions,
): FieldCause[] {
  const m = meta ?? {};
  const path = options.fieldPath ?? 'metadata';
  const nameFn = options.nameValidator ?? nameIsDnsSubdomain;
  const causes: FieldCause[] = [];
  if (m.generateName) {
    for (const msg of nameFn(m.generateName, true)) {
      causes.push(fieldErrors.invalid(`${path}.generateName`, m.generateName, msg));
    }
  }
  if (!m.name) {
    if (!m.generateName)
      causes.push(fieldErrors.required(`${path}.name`, 'name or generateName is required'));
  } else {
    for (const msg of nameFn(m.name, false)) causes.push(fieldErrors.invalid(`${path}.name`, m.name, msg));
  }
  if (options.namespaced) {
    if (!m.namespace) causes.push(fieldErrors.required(`${path}.namespace`));
    else {
      for (const msg of validateNamespaceName(m.namespace, false)) {
        causes.push(fieldErrors.invalid(`${path}.namespace`, m.namespace, msg));
      }
    }
  } else if (m.namespace) {
    causes.push(fieldErrors.forbidden(`${path}.namespace`, 'not allowed on this type'));
  }
  if (typeof m.generation === 'number' && m.generation < 0) {
    causes.push(fieldErrors.invalid(`${path}.generation`, m.generation, isNegativeErrorMsg));
  }
  causes.push(...validateLabels(m.labels, `${path}.labels`));
  causes.push(...validateAnnotations(m.annotations, `${path}.annotations`));
  causes.push(...validateOwnerReferences(m.ownerReferences, `${path}.ownerReferences`, options.bannedOwners));
  causes.push(...validateFinalizers(m.finalizers, `${path}.finalizers`));
  causes.push(...validateManagedFields(m.managedFields, `${path}.managedFields`));
  return causes;
}

const sameValue = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * Validates metadata on update against the stored object: name, namespace, uid, creationTimestamp,
 * deletionTimestamp and deletionGracePeriodSeconds are immutable, resourceVersion is required,
 * generation may not decrease, no finalizer may be added once deletion started; plus the create-time
 * checks of labels, annotations, ownerReferences and managedFields (not finalizer names, as upstream).
 */
export function validateObjectMetaUpdate(
  next: ObjectMeta,
  old: ObjectMeta,
  options: Pick<ValidateObjectMetaOptions, 'fieldPath' | 'bannedOwners'> = {},
): FieldCause[] {
  const path = options.fieldPath ?? 'metadata';
  const causes: FieldCause[] = [];
  if (old.deletionTimestamp) {
    const before = new Set(old.finalizers ?? []);
    const added = [...new Set(next.finalizers ?? [])].filter((f) => !before.has(f)).sort();
    if (added.length) {
      causes.push(
        fieldErrors.forbidden(
          `${path}.finalizers`,
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
        ),
      );
    }
  }
  if (!next.resourceVersion) {
    causes.push(
      fieldErrors.invalid(
        `${path}.resourceVersion`,
        next.resourceVersion ?? '',
        'must be specified for an update',
      ),
    );
  }
  if ((next.generation ?? 0) < (old.generation ?? 0)) {
    causes.push(fieldErrors.invalid(`${path}.generation`, next.generation ?? 0, 'must not be decremented'));
  }
  for (const f of [
    'name',
    'namespace',
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
  ] as const) {
    const a = next[f];
    const b = old[f];
    // An empty string and an absent field are the same value in Go.
    if (!sameValue(a === '' ? undefined : a, b === '' ? undefined : b)) {
      causes.push(fieldErrors.invalid(`${path}.${f}`, a ?? null, fieldImmutableErrorMsg));
    }
  }
  causes.push(...validateLabels(next.labels, `${path}.labels`));
  causes.push(...validateAnnotations(next.annotations, `${path}.annotations`));
  causes.push(
    ...validateOwnerReferences(next.ownerReferences, `${path}.ownerReferences`, options.bannedOwners),
  );
  causes.push(...validateManagedFields(next.managedFields, `${path}.managedFields`));
  return causes;
}
