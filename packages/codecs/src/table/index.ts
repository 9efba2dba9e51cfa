/**
 * @orchard/codecs/table — the Table representation (spec doc 1 §2.5): conversion of objects and
 * lists, the default table, built-in column sets, CRD printer columns with JSONPath, ages.
 */

export {
  builtinTableConvertor,
  builtinTableConvertors,
  configMapTable,
  deploymentTable,
  eventTable,
  leaseTable,
  namespaceTable,
  secretTable,
  serviceAccountTable,
  serviceTable,
} from './builtin.js';
export { podTable } from './builtin-pods.js';
export { humanDuration, translateTimestampSince } from './human-duration.js';
export type { JsonPath } from './jsonpath.js';
export { JsonPathError, parseJsonPath } from './jsonpath.js';
export type { PartialObjectMetadata, PartialObjectMetadataList } from './partial.js';
export { toPartialObjectMetadata, toPartialObjectMetadataList } from './partial.js';
export type { ToTableOptions } from './table.js';
export {
  defaultCrdPrinterColumns,
  defaultTableConvertor,
  nameColumn,
  objectMetaDescriptions,
  printerColumnConvertor,
  toTable,
} from './table.js';
export type {
  IncludeObject,
  PrinterColumn,
  Table,
  TableCellContext,
  TableColumnDefinition,
  TableColumnType,
  TableConvertor,
  TableRow,
  TableRowCondition,
} from './types.js';
