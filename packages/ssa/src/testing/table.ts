import type { ApiObject, ManagedFieldsEntry } from '@orchard/meta';
import type { StructuralSchema } from '@orchard/schema';
import { isApplyConflict } from '../manager/errors.js';
import { apply, update } from '../manager/field-manager.js';

/**
 * Table-driven scenarios for the field manager: a row starts from `live` (or nothing), runs its
 * writes in order, and states the result of the last one: the object (without managedFields),
 * the managedFields as `{"<manager>/<operation>[/<subresource>][@<apiVersion when not the default>]": fieldsV1}`, or the conflict
 * message. Every write before the last must succeed.
 */
export type Write =
  | {
      readonly apply: ApiObject;
      readonly manager: string;
      readonly force?: boolean;
      readonly subresource?: string;
      readonly apiVersion?: string;
    }
  | {
      readonly update: ApiObject;
      readonly manager: string;
      readonly subresource?: string;
      readonly apiVersion?: string;
    };

export interface Row {
  readonly name: string;
  readonly live?: ApiObject;
  readonly writes: readonly Write[];
  readonly object?: unknown;
  readonly managedFields?: Record<string, unknown>;
  /** The exact conflict message of the last write. */
  readonly conflict?: string;
}

export interface RowResult {
  object: unknown;
  managedFields: Record<string, unknown>;
  entries: ManagedFieldsEntry[];
  error: unknown;
}

export function runRow(
  row: Row,
  schema: StructuralSchema | undefined,
  kind = 'Widget',
  apiVersion = 'example.com/v1',
): RowResult {
  let live: ApiObject | undefined = row.live;
  let entries: ManagedFieldsEntry[] = [];
  let error: unknown;
  row.writes.forEach((w, i) => {
    const last = i === row.writes.length - 1;
    const opts = {
      manager: w.manager,
      apiVersion: w.apiVersion ?? apiVersion,
      ...(w.subresource ? { subresource: w.subresource } : {}),
      ...(schema ? { schema } : {}),
      now: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    };
    try {
      const r =
        'apply' in w
          ? apply(
              live,
              { apiVersion: opts.apiVersion, kind, ...w.apply },
              { ...opts, force: w.force === true },
            )
          : update(live, { apiVersion: opts.apiVersion, kind, ...w.update }, opts);
      live = r.object;
      entries = r.managedFields;
    } catch (e) {
      if (!last || !isApplyConflict(e)) throw e;
      error = e;
    }
  });
  const managedFields: Record<string, unknown> = {};
  for (const e of entries) {
    const v = e.apiVersion !== apiVersion ? `@${e.apiVersion}` : '';
    managedFields[[e.manager, e.operation, ...(e.subresource ? [e.subresource] : [])].join('/') + v] =
      e.fieldsV1;
  }
  return { object: error ? undefined : stripMeta(live), managedFields, entries, error };
}

/** The object without managedFields and without apiVersion/kind, for compact expectations. */
export function stripMeta(o: ApiObject | undefined): unknown {
  if (o === undefined) return undefined;
  const { apiVersion: _a, kind: _k, ...rest } = o;
  const { managedFields: _m, ...metadata } = (o.metadata ?? {}) as Record<string, unknown>;
  return Object.keys(metadata).length > 0 ? { ...rest, metadata } : { ...rest, metadata: {} };
}
