import { formatRfc3339, type ManagedFieldsEntry, nowRfc3339 } from '@orchard/meta';
import { FieldSet } from '../fieldpath/field-set.js';
import { fromFieldsV1, toFieldsV1 } from '../fieldpath/fields-v1.js';
import { makePath } from '../fieldpath/path-element.js';
import type { ManagedSets } from '../merge/updater.js';

/** Decoded `metadata.managedFields`: owned sets and their timestamps, by manager key. */
export interface Managed {
  readonly fields: ManagedSets;
  readonly times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

/** The identity of one managedFields entry, as upstream's manager key. */
export interface ManagerIdentity {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  /** Part of the key for `Update` only: an applier keeps one entry whatever version it applies. */
  readonly apiVersion?: string;
  readonly subresource?: string;
}

/**
 * Upstream's manager key: the entry's JSON without fieldsType, fieldsV1 and time (and without
 * apiVersion for `Apply`), e.g. `{"manager":"kubectl","operation":"Apply"}`.
 */
export function managerKey(id: ManagerIdentity): string {
  let s = `{"manager":${JSON.stringify(id.manager)},"operation":${JSON.stringify(id.operation)}`;
  if (id.operation !== 'Apply' && id.apiVersion) s += `,"apiVersion":${JSON.stringify(id.apiVersion)}`;
  if (id.subresource) s += `,"subresource":${JSON.stringify(id.subresource)}`;
  return `${s}}`;
}

/** Parses a manager key back; undefined when it is not one (a bare manager name). */
export function parseManagerKey(key: string): ManagerIdentity | undefined {
  if (!key.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(key) as Record<string, unknown>;
    if (typeof v.manager !== 'string' && v.manager !== undefined) return undefined;
    return {
      manager: (v.manager as string | undefined) ?? '',
      operation: v.operation === 'Apply' ? 'Apply' : 'Update',
      ...(typeof v.apiVersion === 'string' ? { apiVersion: v.apiVersion } : {}),
      ...(typeof v.subresource === 'string' ? { subresource: v.subresource } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * How a conflicting manager is named in messages (upstream `printManager`): `"A"` for an
 * applier, `"kubectl-client-side-apply" using v1` for an updater, `with subresource "status"`
 * inserted when set.
 */
export function printManager(key: string): string {
  const id = parseManagerKey(key);
  if (id === undefined) return JSON.stringify(key);
  let s = JSON.stringify(id.manager);
  if (id.subresource) s += ` with subresource ${JSON.stringify(id.subresource)}`;
  if (id.operation === 'Update') s += ` using ${id.apiVersion ?? ''}`;
  return s;
}

/** Error text for an invalid entry; thrown as a plain Error, wrapped by the caller. */
function invalid(msg: string): never {
  throw new Error(msg);
}

/**
 * Decodes `metadata.managedFields` (upstream `DecodeManagedFields`): each entry needs operation
 * `Apply` or `Update`, an apiVersion and fieldsType `FieldsV1`. Throws on an invalid entry.
 */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined): Managed {
  const m = emptyManaged();
  if (!entries) return m;
  entries.forEach((e, i) => {
    if (typeof e !== 'object' || e === null) invalid(`managed fields entry ${i} is not an object`);
    if (e.operation !== 'Apply' && e.operation !== 'Update') invalid('operation must be `Apply` or `Update`');
    if (!e.apiVersion) invalid('apiVersion must not be empty');
    if (!e.fieldsType) invalid(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1')
      invalid(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const key = managerKey({
      manager: e.manager ?? '',
      operation: e.operation,
      apiVersion: e.apiVersion,
      ...(e.subresource ? { subresource: e.subresource } : {}),
    });
    const set = e.fieldsV1 === undefined || e.fieldsV1 === null ? FieldSet.EMPTY : fromFieldsV1(e.fieldsV1);
    m.fields.set(key, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    m.times.set(key, e.time ?? undefined);
  });
  return m;
}

/**
 * Encodes managed sets as `metadata.managedFields` entries, sorted as upstream: operation (Apply
 * first), then time (seconds), manager, apiVersion, subresource. Empty sets are left out.
 */
export function encodeManagedFields(m: Managed): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const [key, vs] of m.fields) {
    if (vs.set.isEmpty()) continue;
    const id = parseManagerKey(key);
    const e: ManagedFieldsEntry = {
      manager: id?.manager ?? key,
      operation: vs.applied ? 'Apply' : 'Update',
      apiVersion: vs.apiVersion,
    };
    const t = m.times.get(key);
    if (t !== undefined) e.time = t;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = toFieldsV1(vs.set);
    if (id?.subresource) e.subresource = id.subresource;
    out.push(e);
  }
  const secs = (t: string | undefined) => (t === undefined ? 0 : Math.floor(Date.parse(t) / 1000) || 0);
  const cmp = (a: string | undefined, b: string | undefined) =>
    (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;
  out.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      secs(p.time) - secs(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource, q.subresource),
  );
  return out;
}

/**
 * Fields the server sets and nobody manages (upstream `StripMetaManager`): removed from the
 * writer's set after every write. deletionTimestamp and deletionGracePeriodSeconds are added
 * here because this server also records graceful deletion through the write pipeline.
 */
export const serverSetFields: FieldSet = FieldSet.of(
  makePath('apiVersion'),
  makePath('kind'),
  makePath('metadata'),
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
  ].map((f) => makePath('metadata', f)),
);

/** True for a managedFields list that asks for a reset (spec doc 1 §4.9 item 10): exactly one empty entry. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries) || entries.length !== 1) return false;
  const e = entries[0];
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  for (const v of Object.values(e)) if (v !== undefined && v !== null && v !== '') return false;
  return true;
}

/** RFC 3339 with seconds, UTC, as managedFields times are written. */
export function formatTime(now: Date | string | undefined): string {
  if (now === undefined) return nowRfc3339();
  return formatRfc3339(typeof now === 'string' ? new Date(now) : now);
}
