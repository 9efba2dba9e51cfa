/**
 * Table conversion (spec doc 1 §2.5): objects → `{kind: Table, columnDefinitions, rows}`, with
 * the default table for resources without a definition and JSONPath columns for CRDs.
 */
import type { ApiObject, Flavor, ListMeta } from '@orchard/meta';
import { humanDuration } from './human-duration.js';
import { parseJsonPath } from './jsonpath.js';
import { toPartialObjectMetadata } from './partial.js';
import type {
  IncludeObject,
  PrinterColumn,
  Table,
  TableCellContext,
  TableColumnDefinition,
  TableConvertor,
  TableRow,
} from './types.js';

/** The descriptions upstream takes from ObjectMeta's API documentation. */
export const objectMetaDescriptions = Object.freeze({
  name: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  creationTimestamp:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
});

/** The Name column every table starts with. */
export const nameColumn: TableColumnDefinition = Object.freeze({
  name: 'Name',
  type: 'string',
  format: 'name',
  description: objectMetaDescriptions.name,
  priority: 0,
});

function metadataOf(obj: Record<string, unknown>): Record<string, unknown> {
  const m = obj.metadata;
  return typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : {};
}

/**
 * The table of a resource without a definition: `Name` (string, format name) and `Created At`
 * (date, the RFC 3339 creation timestamp as upstream's default convertor prints it).
 */
export const defaultTableConvertor: TableConvertor = Object.freeze({
  columns: Object.freeze([
    nameColumn,
    Object.freeze({
      name: 'Created At',
      type: 'date' as const,
      format: '',
      description: objectMetaDescriptions.creationTimestamp,
      priority: 0,
    }),
  ]),
  cells(obj: Record<string, unknown>) {
    const m = metadataOf(obj);
    return [m.name ?? '', m.creationTimestamp ?? null];
  },
});

/** The column upstream gives CRDs that declare no printer columns. */
export const defaultCrdPrinterColumns: readonly PrinterColumn[] = Object.freeze([
  Object.freeze({
    name: 'Age',
    type: 'date' as const,
    jsonPath: '.metadata.creationTimestamp',
    description: objectMetaDescriptions.creationTimestamp,
  }),
]);

/** A JSON value as the jsonpath printer prints it inside a string cell. */
function printValue(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Upstream `cellForJSONValue`: a typed cell from the first value a printer column selects. */
function cellForValue(type: PrinterColumn['type'], value: unknown, now: number): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = Date.parse(value);
      return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
    }
    default:
      return null;
  }
}

/**
 * The convertor of a CRD's `additionalPrinterColumns`: Name first, then one column per entry,
 * each cell from its JSONPath (strings print every match space-separated; other types take the
 * first match; no match → null). Throws `JsonPathError` on an invalid path.
 */
export function printerColumnConvertor(columns: readonly PrinterColumn[]): TableConvertor {
  const compiled = columns.map((c) => ({ column: c, path: parseJsonPath(c.jsonPath) }));
  return {
    columns: [
      nameColumn,
      ...columns.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format ?? '',
        description: c.description ?? '',
        priority: c.priority ?? 0,
      })),
    ],
    cells(obj, ctx) {
      const cells: unknown[] = [metadataOf(obj).name ?? ''];
      for (const { column, path } of compiled) {
        const results = path.evaluate(obj);
        if (results.length === 0) cells.push(null);
        else if (column.type === 'string') cells.push(results.map(printValue).join(' '));
        else cells.push(cellForValue(column.type, results[0], ctx.now));
      }
      return cells;
    },
  };
}

/** The flavor, row contents, list metadata, column definitions and clock of a Table conversion. */
export interface ToTableOptions {
  /** For `apiVersion: meta.<domain>/v1` of the Table and of PartialObjectMetadata rows. */
  readonly flavor: Flavor;
  /** What each row carries (default `Metadata`). */
  readonly includeObject?: IncludeObject;
  /** The list's metadata (resourceVersion, continue, remainingItemCount) when converting a list. */
  readonly listMeta?: ListMeta;
  /** False for watch events after the first: kubectl needs the columns only once. Default true. */
  readonly includeColumnDefinitions?: boolean;
  /** "Now" for ages (default `Date.now()`). */
  readonly now?: number;
}

/**
 * Converts objects into a Table with `convertor`'s columns (`defaultTableConvertor` when
 * undefined). A single object gives one row and the Table takes its resourceVersion; a list
 * takes `listMeta`.
 */
export function toTable(
  objects: ApiObject | readonly ApiObject[],
  convertor: TableConvertor | undefined,
  options: ToTableOptions,
): Table {
  const conv = convertor ?? defaultTableConvertor;
  const include = options.includeObject ?? 'Metadata';
  const metaApiVersion = `meta.${options.flavor.domain}/v1`;
  const ctx: TableCellContext = { now: options.now ?? Date.now() };
  const list = Array.isArray(objects) ? (objects as readonly ApiObject[]) : [objects as ApiObject];
  const rows: TableRow[] = list.map((obj) => {
    const row: TableRow = { cells: conv.cells(obj as Record<string, unknown>, ctx) };
    const conditions = conv.conditions?.(obj as Record<string, unknown>);
    if (conditions) row.conditions = conditions;
    if (include === 'Object') row.object = obj;
    else if (include === 'Metadata') row.object = toPartialObjectMetadata(obj, options.flavor);
    return row;
  });
  let metadata: ListMeta;
  if (options.listMeta) metadata = { ...options.listMeta };
  else if (!Array.isArray(objects) && (objects as ApiObject).metadata?.resourceVersion)
    metadata = { resourceVersion: (objects as ApiObject).metadata?.resourceVersion };
  else metadata = {};
  return {
    kind: 'Table',
    apiVersion: metaApiVersion,
    metadata,
    columnDefinitions: options.includeColumnDefinitions === false ? [] : conv.columns.map((c) => ({ ...c })),
    rows,
  };
}
