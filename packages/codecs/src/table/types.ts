import type { ListMeta } from '@orchard/meta';

/** A column's value type (upstream `TableColumnDefinition.type`, an OpenAPI type name). */
export type TableColumnType = 'integer' | 'number' | 'string' | 'boolean' | 'date';

/** One column of a Table (`meta/v1 TableColumnDefinition`). */
export interface TableColumnDefinition {
  /** Shown upper-cased as the header by kubectl. */
  name: string;
  type: TableColumnType;
  /** `name` marks the column kubectl prefixes with `kind/` for mixed lists; else an OpenAPI format or ''. */
  format: string;
  description: string;
  /** 0 = shown by default; > 0 only with `-o wide`. */
  priority: number;
}

/** A row: one cell per column, and the object (`includeObject`) kubectl needs for -A, labels, sorting. */
export interface TableRow {
  cells: unknown[];
  /** Row conditions; upstream marks finished pods `{type: Completed, status: True}`. */
  conditions?: TableRowCondition[];
  object?: unknown;
}

/** A condition of a Table row (upstream marks finished pods `Completed`). */
export interface TableRowCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

/** The Table representation (spec doc 1 §2.5), `kind: Table`, `apiVersion: meta.<domain>/v1`. */
export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

/** What `rows[].object` carries (query parameter `includeObject`; default `Metadata`). */
export type IncludeObject = 'None' | 'Object' | 'Metadata';

/** What a cell function may need beyond the object. */
export interface TableCellContext {
  /** "Now" in epoch milliseconds, for ages. */
  readonly now: number;
}

/**
 * How a resource turns into Table rows: the column definitions and a function computing one
 * row's cells. The server attaches one to each resource definition; resources without one get
 * `defaultTableConvertor` (Name, Created At).
 */
export interface TableConvertor {
  readonly columns: readonly TableColumnDefinition[];
  cells(object: Record<string, unknown>, context: TableCellContext): unknown[];
  /** Optional row conditions (pods). */
  conditions?(object: Record<string, unknown>): TableRowCondition[] | undefined;
}

/** A CRD `additionalPrinterColumns` entry (apiextensions v1 `CustomResourceColumnDefinition`). */
export interface PrinterColumn {
  name: string;
  type: TableColumnType;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}
