/**
 * Small helpers the built-in column sets share: tolerant field readers (a malformed stored object
 * prints blanks, never throws), column definitions, and upstream's label and selector formats.
 */
import { formatLabelSelector, type LabelSelector, labelSelectorFromObject } from '@orchard/meta';
import { translateTimestampSince } from './human-duration.js';
import { objectMetaDescriptions } from './table.js';
import type { TableCellContext, TableColumnDefinition, TableConvertor, TableRowCondition } from './types.js';

/** A JSON object as the printers read it. */
export type Obj = Record<string, unknown>;

/** `v` when it is a JSON object, else `{}`. */
export const obj = (v: unknown): Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
/** `v` when it is an array, else `[]`. */
export const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
/** `v` when it is a string, else `''`. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** `v` when it is a number, else 0. */
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
/** The number of keys of an object (0 for anything else). */
export const count = (v: unknown): number =>
  typeof v === 'object' && v !== null ? Object.keys(v).length : 0;

/** A column definition (`priority: 1` = shown only with `-o wide`). */
export function col(
  name: string,
  description: string,
  type: TableColumnDefinition['type'] = 'string',
  priority = 0,
): TableColumnDefinition {
  return Object.freeze({ name, type, format: '', description, priority });
}

/** The `Age` column every printer ends its default columns with. */
export const ageColumn = col('Age', objectMetaDescriptions.creationTimestamp);
/** `metadata.name`. */
export const nameOf = (o: Obj): string => str(obj(o.metadata).name);
/** The object's age as upstream's `translateTimestampSince` prints it. */
export const ageOf = (o: Obj, ctx: TableCellContext): string =>
  translateTimestampSince(obj(o.metadata).creationTimestamp, ctx.now);

/** A frozen column set and its cell function. */
export function convertor(
  columns: TableColumnDefinition[],
  cells: (o: Obj, ctx: TableCellContext) => unknown[],
  conditions?: (o: Obj) => TableRowCondition[] | undefined,
): TableConvertor {
  return Object.freeze({ columns: Object.freeze(columns), cells, ...(conditions ? { conditions } : {}) });
}

/** `k=v,k2=v2` sorted by key, `<none>` when empty (upstream `labels.FormatLabels`). */
export function formatLabels(m: unknown): string {
  const keys = Object.keys(obj(m)).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${str(obj(m)[k])}`).join(',');
}

/**
 * A LabelSelector as upstream's `metav1.FormatLabelSelector` (`selector.String()`: requirements
 * sorted by key, values sorted); `<error>` for one that does not parse.
 */
export function formatSelector(sel: unknown): string {
  try {
    return formatLabelSelector(labelSelectorFromObject(obj(sel) as LabelSelector));
  } catch {
    return '<error>';
  }
}
