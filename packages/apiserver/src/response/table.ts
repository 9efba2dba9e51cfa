/**
 * The Table response conversion (spec doc 1 §2.5, §4.3): chosen by
 * `Accept: application/json;as=Table;g=meta.<domain>;v=v1` for get, list and watch. Built-in
 * resources use their column sets from `@orchard/codecs/table`, custom resources their CRD's
 * `additionalPrinterColumns` (Age when none), everything else the default table.
 */
import {
  builtinTableConvertor,
  defaultCrdPrinterColumns,
  type IncludeObject,
  type PrinterColumn,
  printerColumnConvertor,
  type TableConvertor,
  toPartialObjectMetadata,
  toPartialObjectMetadataList,
  toTable,
} from '@orchard/codecs/table';
import {
  type ApiObject,
  errors,
  type Flavor,
  formatApiVersion,
  type ListMeta,
  parseApiVersion,
} from '@orchard/meta';
import type { ResponseConversion } from '../codecs.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { customResourceInfo } from '../schema/schemas.js';

const includeObjectValues: readonly IncludeObject[] = ['None', 'Object', 'Metadata'];

/** Printer-column convertors of custom resources, per definition and version (built once). */
const crdConvertors = new WeakMap<ResourceDefinition, Map<string, TableConvertor>>();

function convertorFor(
  def: ResourceDefinition | undefined,
  version: string,
  flavor: Flavor,
): TableConvertor | undefined {
  if (!def) return undefined;
  const cr = customResourceInfo(def);
  if (cr) {
    let byVersion = crdConvertors.get(def);
    if (!byVersion) {
      byVersion = new Map();
      crdConvertors.set(def, byVersion);
    }
    let conv = byVersion.get(version);
    if (!conv) {
      const columns = cr.printerColumns.get(version) ?? [];
      conv = printerColumnConvertor(
        columns.length > 0 ? (columns as readonly PrinterColumn[]) : defaultCrdPrinterColumns,
      );
      byVersion.set(version, conv);
    }
    return conv;
  }
  const conv = builtinTableConvertor({ group: def.group, resource: def.resource }, flavor);
  return conv && def.convert ? atStorageVersion(def, conv) : conv;
}

/** Convertors of multi-version built-ins that print the storage version's shape (built once). */
const storageShaped = new WeakMap<ResourceDefinition, TableConvertor>();

/**
 * `conv` reading each object at `def`'s storage version, as upstream prints the internal version:
 * an HPA read at autoscaling/v1 shows the same TARGETS as at v2. The row's object is the one asked for.
 */
function atStorageVersion(def: ResourceDefinition, conv: TableConvertor): TableConvertor {
  let out = storageShaped.get(def);
  if (!out) {
    const convert = def.convert as NonNullable<ResourceDefinition['convert']>;
    const storage = def.storageVersion ?? def.versions[0] ?? '';
    const storageApiVersion = formatApiVersion({ group: def.group, version: storage });
    const toStorage = (o: Record<string, unknown>) => {
      if (o.apiVersion === storageApiVersion) return o;
      try {
        return convert(structuredClone(o) as ApiObject, storage) as Record<string, unknown>;
      } catch {
        return o;
      }
    };
    out = Object.freeze({
      columns: conv.columns,
      cells: (o: Record<string, unknown>, ctx: Parameters<TableConvertor['cells']>[1]) =>
        conv.cells(toStorage(o), ctx),
      ...(conv.conditions
        ? { conditions: (o: Record<string, unknown>) => conv.conditions?.(toStorage(o)) }
        : {}),
    });
    storageShaped.set(def, out);
  }
  return out;
}

function includeObjectOf(url: URL | undefined): IncludeObject {
  const v = url?.searchParams.get('includeObject');
  if (v === null || v === undefined || v === '') return 'Metadata';
  if (!(includeObjectValues as readonly string[]).includes(v))
    throw errors.badRequest(
      `includeObject: Unsupported value: "${v}": supported values: "None", "Object", "Metadata"`,
    );
  return v as IncludeObject;
}

/** The Table conversion the server offers by default (JSON and YAML bodies). */
export const tableResponseConversion: ResponseConversion = {
  target: (flavor) => ({ as: 'Table', g: `meta.${flavor.domain}`, v: 'v1' }),
  mediaTypes: ['application/json', 'application/yaml', 'application/cbor'],
  convert(value, ctx) {
    const v = value as ApiObject & { items?: ApiObject[] };
    // A Status (e.g. from a delete) is not a resource: it goes out as it is.
    if (v?.kind === 'Status') return value;
    const version = typeof v?.apiVersion === 'string' ? parseApiVersion(v.apiVersion).version : '';
    const conv = convertorFor(ctx.def, version, ctx.flavor);
    const includeObject = includeObjectOf(ctx.url);
    if (ctx.shape === 'list')
      return toTable(v.items ?? [], conv, {
        flavor: ctx.flavor,
        includeObject,
        listMeta: (v.metadata ?? {}) as ListMeta,
      });
    return toTable(v, conv, {
      flavor: ctx.flavor,
      includeObject,
      includeColumnDefinitions: ctx.shape !== 'watch' || ctx.first !== false,
    });
  },
};

/** Codec media types the metadata-only representations may be encoded with (Protobuf included). */
const metadataMediaTypes = [
  'application/json',
  'application/yaml',
  'application/cbor',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.orch.protobuf',
];

/**
 * `as=PartialObjectMetadata` (get and watch): each object reduced to its metadata, as metadata
 * informers ask for. A list asked for this way is not acceptable (upstream: 406).
 */
export const partialObjectMetadataConversion: ResponseConversion = {
  target: (flavor) => ({ as: 'PartialObjectMetadata', g: `meta.${flavor.domain}`, v: 'v1' }),
  mediaTypes: metadataMediaTypes,
  convert(value, ctx) {
    const v = value as ApiObject;
    if (v?.kind === 'Status') return value;
    if (ctx.shape === 'list')
      throw errors.notAcceptable([
        `application/json;as=PartialObjectMetadataList;g=meta.${ctx.flavor.domain};v=v1`,
      ]);
    return toPartialObjectMetadata(v, ctx.flavor);
  },
};

/** `as=PartialObjectMetadataList` (list): the items reduced to their metadata. */
export const partialObjectMetadataListConversion: ResponseConversion = {
  target: (flavor) => ({ as: 'PartialObjectMetadataList', g: `meta.${flavor.domain}`, v: 'v1' }),
  mediaTypes: metadataMediaTypes,
  convert(value, ctx) {
    const v = value as ApiObject & { items?: ApiObject[] };
    if (v?.kind === 'Status') return value;
    if (ctx.shape !== 'list')
      throw errors.notAcceptable([
        `application/json;as=PartialObjectMetadata;g=meta.${ctx.flavor.domain};v=v1`,
      ]);
    return toPartialObjectMetadataList(v.items ?? [], (v.metadata ?? {}) as ListMeta, ctx.flavor);
  },
};
