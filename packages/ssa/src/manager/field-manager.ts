import type { ApiObject, ManagedFieldsEntry } from '@orchard/meta';
import type { StructuralSchema } from '@orchard/schema';
import type { FieldSet } from '../fieldpath/field-set.js';
import { toFieldsV1 } from '../fieldpath/fields-v1.js';
import { isMap, type JsonMap } from '../fieldpath/value.js';
import { type Conflict, isMergeConflicts } from '../merge/conflicts.js';
import { applyFields, type ManagedSets, updateFields, type VersionConverter } from '../merge/updater.js';
import { type Atom, resourceAtomOf } from '../typed/atom.js';
import { compare } from '../typed/compare.js';
import { dropNulls } from '../typed/drop-nulls.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { TypedValueError } from '../typed/typed-value-error.js';
import { ApplyConflictError, FieldManagerError } from './errors.js';
import {
  allowedConflictsFromLastApplied,
  buildLastApplied,
  hasAnnotation,
  lastAppliedAnnotationKey,
  lastAppliedManager,
  setAnnotation,
} from './last-applied.js';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  formatTime,
  isResetManagedFields,
  type Managed,
  managerKey,
  serverSetFields,
} from './managed-fields.js';

/** Manager that owns the fields of an object first applied after it was written without managedFields. */
export const beforeFirstApplyManager = 'before-first-apply';
/** Bucket for the oldest update managers beyond `maxUpdateManagers`. */
export const ancientChangesManager = 'ancient-changes';
export { lastAppliedAnnotationKey, lastAppliedManager } from './last-applied.js';

/** Who writes (manager, apiVersion, subresource) and the resource's schema. */
export interface FieldManagerWriteOptions {
  /** The `fieldManager` of the request. */
  readonly manager: string;
  /** The API version of the request (`v1`, `apps/v1`). */
  readonly apiVersion: string;
  /** The kind: when set, an apply body of another apiVersion/kind is rejected. */
  readonly kind?: string;
  /** e.g. `status`; part of the managedFields entry's identity. */
  readonly subresource?: string;
  /** The resource schema with merge markers; undefined = every field deduced. */
  readonly schema?: StructuralSchema;
  /** Time recorded on the entry of the writer when the object changed. Default: now. */
  readonly now?: Date | string;
  /** Conversion to other versions for managers that wrote at another version. Default: identity. */
  readonly convert?: VersionConverter;
  /** Update entries kept before the oldest are merged into `ancient-changes` (upstream: 10). */
  readonly maxUpdateManagers?: number;
  /**
   * Fields the write neither owns nor conflicts on: the strategy's reset fields (upstream
   * `GetResetFields`), e.g. `status` for the main resource, `spec` for the status sub-resource.
   */
  readonly ignoredFields?: FieldSet;
  /** Annotation synced by `kubectl` applies (flavor-specific key). Default `lastAppliedAnnotationKey`. */
  readonly lastAppliedAnnotation?: string;
}

/** Options of `apply`: the write options plus `force`. */
export interface ApplyOptions extends FieldManagerWriteOptions {
  /** `force=true`: take conflicting fields instead of failing. */
  readonly force?: boolean;
}

/** The object to store with its new managedFields, and whether anything changed. */
export interface FieldManagerResult {
  /** The object to store, with `metadata.managedFields` set (or removed when no manager remains). */
  readonly object: ApiObject;
  readonly managedFields: ManagedFieldsEntry[];
  /** False when the write changes neither the object nor its managedFields. */
  readonly changed: boolean;
}

/** Update managers kept before the oldest merge into `ancient-changes` (upstream: 10). */
export const defaultMaxUpdateManagers = 10;

/**
 * Server-side apply (spec doc 1 §4.9 items 2–5, 8, 11): merges `intent` into `live` (absent =
 * create) for `opts.manager`, and maintains managedFields. Throws `ApplyConflictError` on
 * conflicts without `force`, `FieldManagerError` for an invalid body (managedFields set, wrong
 * type, list items without keys). Inputs are not mutated.
 */
export function apply(
  live: ApiObject | undefined,
  intent: ApiObject,
  opts: ApplyOptions,
): FieldManagerResult {
  const intentMeta = intent.metadata as JsonMap | undefined;
  if (intentMeta?.managedFields !== undefined && intentMeta.managedFields !== null)
    throw new FieldManagerError('ManagedFieldsInApply', 'metadata.managedFields must be nil');
  if (opts.kind !== undefined && (intent.apiVersion !== opts.apiVersion || intent.kind !== opts.kind)) {
    const gv = intent.apiVersion ?? '';
    if (gv !== opts.apiVersion)
      throw new FieldManagerError(
        'InvalidObjectType',
        `Incorrect version specified in apply patch. Specified patch version: ${gv}, expected: ${opts.apiVersion}`,
      );
    throw new FieldManagerError(
      'InvalidObjectType',
      `invalid object type: ${formatGvk(gv, intent.kind ?? '')}`,
    );
  }
  const atom = resourceAtomOf(opts.schema);
  let managed: Managed;
  try {
    managed = decodeManagedFields(live?.metadata?.managedFields);
  } catch (e) {
    throw new FieldManagerError(
      'InvalidManagedFields',
      `failed to decode managed fields: ${(e as Error).message}`,
    );
  }
  const liveBody = withoutManagedFields(live) ?? {};
  const key = managerKey({
    manager: opts.manager,
    operation: 'Apply',
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  });
  const before = encodeManagedFields(managed);

  const run = (force: boolean) => {
    let m = cloneManaged(managed);
    if (m.fields.size === 0 && live !== undefined) {
      // Upstream skipNonAppliedManager: an object written without managedFields gets them now.
      const bfa = managerKey({
        manager: beforeFirstApplyManager,
        operation: 'Update',
        apiVersion: opts.apiVersion,
      });
      const r = guard(() =>
        updateFields({}, liveBody, opts.apiVersion, m.fields, bfa, { atom, ...conv(opts) }),
      );
      strip(r.managers, bfa);
      m = { fields: r.managers, times: m.times };
      if (r.managers.has(bfa)) m.times.set(bfa, formatTime(opts.now));
    }
    const r = guard(() =>
      applyFields(liveBody, intent, opts.apiVersion, m.fields, key, force, { atom, ...conv(opts) }),
    );
    strip(r.managers, key);
    // Nulls the merge leaves (emptied containers, nulls of the intent) are not stored, as upstream's decoding.
    const object = r.object === undefined ? undefined : dropNulls(r.object, atom);
    return { m: { fields: r.managers, times: m.times } as Managed, object };
  };

  let result: { m: Managed; object: unknown };
  try {
    result = run(opts.force === true);
  } catch (e) {
    if (!isMergeConflicts(e)) throw e;
    let conflicts: readonly Conflict[] = e.conflicts;
    if (opts.manager === lastAppliedManager && live !== undefined) {
      const allowed = allowedConflictsFromLastApplied(
        live,
        liveBody,
        opts.apiVersion,
        opts.lastAppliedAnnotation ?? lastAppliedAnnotationKey,
        atom,
      );
      if (allowed !== undefined) conflicts = conflicts.filter((c) => !allowed.has(c.path));
    }
    if (conflicts.length > 0) throw new ApplyConflictError(conflicts);
    result = run(true);
  }

  const objectChanged = result.object !== undefined;
  let obj = (objectChanged ? result.object : liveBody) as ApiObject;
  if (objectChanged) result.m.times.set(key, formatTime(opts.now));
  for (const k of [...result.m.times.keys()]) if (!result.m.fields.has(k)) result.m.times.delete(k);
  const annotation = opts.lastAppliedAnnotation ?? lastAppliedAnnotationKey;
  let annotationChanged = false;
  if (opts.manager === lastAppliedManager && hasAnnotation(obj, annotation)) {
    const value = buildLastApplied(intent, annotation);
    annotationChanged =
      (obj.metadata?.annotations as Record<string, string> | undefined)?.[annotation] !== value;
    if (annotationChanged) obj = setAnnotation(obj, annotation, value);
  }
  const entries = encodeManagedFields(result.m);
  return {
    object: withManagedFields(obj, entries),
    managedFields: entries,
    changed: objectChanged || annotationChanged || !sameEntries(before, entries),
  };
}

/**
 * Records a non-apply write (create, update, JSON/merge/strategic patch, status writes): never
 * conflicts; `opts.manager` takes the fields that changed (an `Update` entry at
 * `opts.apiVersion`), other managers lose them. managedFields in `next` are honoured as upstream:
 * one empty entry resets them (processed first, so the writer owns every field it changed), an
 * empty list or an invalid list keeps the live ones, any other valid list becomes the new state.
 * Sub-resource writes always keep the live managedFields.
 */
export function update(
  live: ApiObject | undefined,
  next: ApiObject,
  opts: FieldManagerWriteOptions,
): FieldManagerResult {
  const atom = resourceAtomOf(opts.schema);
  const sub = opts.subresource !== undefined && opts.subresource !== '';
  const managed = decodeLiveOrNew(live, next, sub);
  const nextBody = withoutManagedFields(next) as ApiObject;
  if (live === undefined && !sub && managed.fields.size === 0) return createdBy(nextBody, atom, opts);
  const liveBody = withoutManagedFields(live) ?? {};
  const key = managerKey({
    manager: opts.manager,
    operation: 'Update',
    apiVersion: opts.apiVersion,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  });
  const r = guard(() =>
    updateFields(liveBody, nextBody, opts.apiVersion, managed.fields, key, { atom, ...conv(opts) }),
  );
  const c = r.comparison;
  const taken = c.modified.union(c.added).difference(c.removed).difference(serverSetFields);
  strip(r.managers, key);
  const m: Managed = { fields: r.managers, times: managed.times };
  if (!taken.isEmpty()) m.times.set(key, formatTime(opts.now));
  capUpdateManagers(m, opts.maxUpdateManagers ?? defaultMaxUpdateManagers);
  for (const k of [...m.times.keys()]) if (!m.fields.has(k)) m.times.delete(k);
  const entries = encodeManagedFields(m);
  return { object: withManagedFields(nextBody, entries), managedFields: entries, changed: true };
}

/**
 * `update` for a create with no managedFields to keep (the usual create): the writer owns every
 * field it sets. The same steps as the general path with no other manager: the comparison with
 * an empty object (so the same errors for list items without keys), minus the ignored and the
 * server-set fields, one entry stamped now.
 */
function createdBy(nextBody: ApiObject, atom: Atom, opts: FieldManagerWriteOptions): FieldManagerResult {
  let set = guard(() => compare({}, nextBody, atom)).added as FieldSet;
  if (opts.ignoredFields !== undefined) set = set.recursiveDifference(opts.ignoredFields);
  set = set.difference(serverSetFields);
  const entries: ManagedFieldsEntry[] = set.isEmpty()
    ? []
    : [
        {
          manager: opts.manager,
          operation: 'Update',
          apiVersion: opts.apiVersion,
          time: formatTime(opts.now),
          fieldsType: 'FieldsV1',
          fieldsV1: toFieldsV1(set),
        },
      ];
  return { object: withManagedFields(nextBody, entries), managedFields: entries, changed: true };
}

/** The field set an object's fields form under a schema (handy for tests and tools). */
export function objectFieldSet(object: unknown, schema?: StructuralSchema): FieldSet {
  return toFieldSet(withoutManagedFields(object as ApiObject), resourceAtomOf(schema)).difference(
    serverSetFields,
  );
}

/** A field manager bound to one resource's schema and version (`createFieldManager(schema)`). */
export interface FieldManager {
  apply(
    live: ApiObject | undefined,
    intent: ApiObject,
    opts: Omit<ApplyOptions, 'schema'>,
  ): FieldManagerResult;
  update(
    live: ApiObject | undefined,
    next: ApiObject,
    opts: Omit<FieldManagerWriteOptions, 'schema'>,
  ): FieldManagerResult;
}

/** A field manager bound to one resource's schema and default options. */
export function createFieldManager(
  schema?: StructuralSchema,
  defaults: Partial<FieldManagerWriteOptions> = {},
): FieldManager {
  return {
    apply: (live, intent, opts) =>
      apply(live, intent, { ...defaults, ...opts, ...(schema ? { schema } : {}) }),
    update: (live, next, opts) => update(live, next, { ...defaults, ...opts, ...(schema ? { schema } : {}) }),
  };
}

function conv(opts: FieldManagerWriteOptions): { convert?: VersionConverter; ignored?: FieldSet } {
  return {
    ...(opts.convert ? { convert: opts.convert } : {}),
    ...(opts.ignoredFields ? { ignored: opts.ignoredFields } : {}),
  };
}

function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof TypedValueError) throw new FieldManagerError('InvalidObject', e.message);
    throw e;
  }
}

function strip(managers: ManagedSets, key: string): void {
  const vs = managers.get(key);
  if (vs === undefined) return;
  const set = vs.set.difference(serverSetFields);
  if (set.isEmpty()) managers.delete(key);
  else if (set !== vs.set) managers.set(key, { set, apiVersion: vs.apiVersion, applied: vs.applied });
}

function cloneManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

function decodeLiveOrNew(live: ApiObject | undefined, next: ApiObject, ignoreNew: boolean): Managed {
  const fromLive = () => {
    try {
      return decodeManagedFields(live?.metadata?.managedFields);
    } catch {
      return emptyManaged();
    }
  };
  if (ignoreNew) return fromLive();
  const nm = next.metadata?.managedFields;
  if (isResetManagedFields(nm)) return emptyManaged();
  if (!Array.isArray(nm) || nm.length === 0) return fromLive();
  try {
    const m = decodeManagedFields(nm);
    return m.fields.size === 0 ? fromLive() : m;
  } catch {
    return fromLive();
  }
}

/** Upstream capManagersManager: merges the oldest update entries into per-version `ancient-changes` buckets. */
function capUpdateManagers(m: Managed, max: number): void {
  const updaters = [...m.fields.entries()].filter(([, vs]) => !vs.applied).map(([k]) => k);
  if (updaters.length <= max) return;
  const secs = (k: string) => {
    const t = m.times.get(k);
    return t === undefined ? 0 : Math.floor(Date.parse(t) / 1000) || 0;
  };
  updaters.sort((a, b) => secs(a) - secs(b) || (a < b ? -1 : a > b ? 1 : 0));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const k = updaters[i] as string;
    const vs = m.fields.get(k);
    if (vs === undefined) continue;
    const bucket = managerKey({
      manager: ancientChangesManager,
      operation: 'Update',
      apiVersion: vs.apiVersion,
    });
    const first = firstByVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstByVersion.set(vs.apiVersion, k);
      continue;
    }
    if (!m.fields.has(bucket)) {
      const s = m.fields.get(first);
      m.fields.delete(first);
      if (s) m.fields.set(bucket, s);
    }
    const b = m.fields.get(bucket);
    m.fields.set(bucket, { set: vs.set.union(b?.set ?? vs.set), apiVersion: vs.apiVersion, applied: false });
    m.fields.delete(k);
    length--;
    m.times.set(bucket, m.times.get(k));
  }
}

function withoutManagedFields<T extends ApiObject | undefined>(o: T): T {
  if (o === undefined || !isMap(o.metadata) || !Object.hasOwn(o.metadata, 'managedFields')) return o;
  const { managedFields: _, ...meta } = o.metadata as JsonMap;
  return { ...o, metadata: meta } as T;
}

function withManagedFields(o: ApiObject, entries: ManagedFieldsEntry[]): ApiObject {
  const meta = { ...((o.metadata as JsonMap | undefined) ?? {}) };
  if (entries.length > 0) meta.managedFields = entries;
  else delete meta.managedFields;
  return { ...o, metadata: meta } as ApiObject;
}

function sameEntries(a: ManagedFieldsEntry[], b: ManagedFieldsEntry[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function formatGvk(apiVersion: string, kind: string): string {
  const i = apiVersion.indexOf('/');
  const group = i < 0 ? '' : apiVersion.slice(0, i);
  const version = i < 0 ? apiVersion : apiVersion.slice(i + 1);
  return `${group === '' ? '' : `${group}/`}${version}, Kind=${kind}`;
}
