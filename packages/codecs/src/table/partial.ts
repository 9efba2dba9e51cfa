/**
 * The metadata-only representations (`as=PartialObjectMetadata` / `as=PartialObjectMetadataList`
 * in Accept, what metadata informers ask for): the object reduced to its `metadata`, typed
 * `meta.<domain>/v1`. They have a Protobuf form for every resource, custom ones included.
 */
import type { ApiObject, Flavor, ListMeta } from '@orchard/meta';

/** An object reduced to its metadata (`as=PartialObjectMetadata`). */
export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: NonNullable<ApiObject['metadata']>;
}

/** A list reduced to its items' metadata (`as=PartialObjectMetadataList`). */
export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: string;
  metadata: ListMeta;
  items: PartialObjectMetadata[];
}

/** Reduces an object to its TypeMeta and metadata, as the PartialObjectMetadata conversion does. */
export function toPartialObjectMetadata(obj: ApiObject, flavor: Flavor): PartialObjectMetadata {
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `meta.${flavor.domain}/v1`,
    metadata: obj.metadata ?? {},
  };
}

/** Reduces a list to PartialObjectMetadata items. */
export function toPartialObjectMetadataList(
  items: readonly ApiObject[],
  listMeta: ListMeta,
  flavor: Flavor,
): PartialObjectMetadataList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.${flavor.domain}/v1`,
    metadata: { ...listMeta },
    items: items.map((o) => toPartialObjectMetadata(o, flavor)),
  };
}
