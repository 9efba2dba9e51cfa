import { z } from 'zod';

/**
 * The common object fields of spec doc 1 §2.2–2.4 as zod schemas and their types.
 * Schemas are loose (unknown keys kept): the per-type structural schema (`@orchard/schema`)
 * decides what is unknown, not this generic model.
 */

export const ManagedFieldsEntrySchema = z.looseObject({
  manager: z.string().optional(),
  operation: z.enum(['Apply', 'Update']).optional(),
  apiVersion: z.string().optional(),
  time: z.string().optional(),
  fieldsType: z.string().optional(),
  fieldsV1: z.record(z.string(), z.unknown()).optional(),
  subresource: z.string().optional(),
});
/** One `metadata.managedFields` entry: a manager, its operation and the fields it owns. */
export type ManagedFieldsEntry = z.infer<typeof ManagedFieldsEntrySchema>;

/** An `ownerReferences` entry. */
export const OwnerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});
/** A reference from an object to its owner (garbage collection). */
export type OwnerReference = z.infer<typeof OwnerReferenceSchema>;

const stringMap = z.record(z.string(), z.string());

/** ObjectMeta (spec doc 1 §2.2); loose, `null` allowed where upstream's omitempty fields accept it. */
export const ObjectMetaSchema = z.looseObject({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  creationTimestamp: z.string().nullable().optional(),
  deletionTimestamp: z.string().nullable().optional(),
  deletionGracePeriodSeconds: z.number().int().nullable().optional(),
  labels: stringMap.nullable().optional(),
  annotations: stringMap.nullable().optional(),
  finalizers: z.array(z.string()).nullable().optional(),
  ownerReferences: z.array(OwnerReferenceSchema).nullable().optional(),
  managedFields: z.array(ManagedFieldsEntrySchema).nullable().optional(),
  selfLink: z.string().optional(),
});
/** The common metadata of every object (spec doc 1 §2.2). */
export type ObjectMeta = z.infer<typeof ObjectMetaSchema>;

/** TypeMeta: `apiVersion` and `kind`. */
export const TypeMetaSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
});
/** `apiVersion` and `kind`. */
export type TypeMeta = z.infer<typeof TypeMetaSchema>;

/** Any API object: TypeMeta + metadata + the type's own fields. */
export const ApiObjectSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.optional(),
});
/** Any API object: TypeMeta, metadata and the type's own fields. */
export interface ApiObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** An object as stored and served: metadata always present. */
export interface StoredObject extends ApiObject {
  metadata: ObjectMeta & { name: string; uid: string; resourceVersion: string };
}

/** ListMeta (spec doc 1 §2.3). */
export const ListMetaSchema = z.looseObject({
  resourceVersion: z.string().optional(),
  continue: z.string().optional(),
  remainingItemCount: z.number().int().optional(),
  selfLink: z.string().optional(),
});
/** The metadata of a list: its resourceVersion, `continue` token and `remainingItemCount`. */
export type ListMeta = z.infer<typeof ListMetaSchema>;

/** A collection. Its kind is `<Kind>List`, never `List` (spec doc 1 §2.3). */
export interface ApiList<T extends ApiObject = ApiObject> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

/** The kind of a collection of `kind` (`ConfigMap` → `ConfigMapList`). */
export function listKindOf(kind: string): string {
  return `${kind}List`;
}

/** The event types of spec doc 1 §2.4. */
export const watchEventTypes = ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'] as const;
/** The type of a watch event. */
export type WatchEventType = (typeof watchEventTypes)[number];

/**
 * One watch event as a client receives it: a known `type` and an object (for `ERROR`, a Status).
 * `@orchard/client`'s watch decoder checks every event against it.
 */
export const WatchEventSchema = z.looseObject({ type: z.enum(watchEventTypes), object: ApiObjectSchema });

/** A watch event (spec doc 1 §2.4). For BOOKMARK the object carries only `metadata.resourceVersion`. */
export interface WatchEvent<T = ApiObject> {
  type: WatchEventType;
  object: T;
}

/** The annotation a BOOKMARK carries at the end of the initial events of `sendInitialEvents`. */
export function initialEventsEndAnnotation(domain: string): string {
  return `${domain}/initial-events-end`;
}

/**
 * DeleteOptions as a request body carries them (spec doc 1 §2.8): `null` means unset, unknown fields
 * are ignored. The server decodes bodies with it (a wrong JSON type is a 400 naming the field);
 * `propagationPolicy` is any string here because a value outside the three policies is a 422 of
 * validation, not a decoding error, as upstream.
 */
export const DeleteOptionsSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  dryRun: z.array(z.string()).nullable().optional(),
  gracePeriodSeconds: z.number().refine(Number.isInteger, 'expected an integer').nullable().optional(),
  orphanDependents: z.boolean().nullable().optional(),
  preconditions: z
    .looseObject({ uid: z.string().nullable().optional(), resourceVersion: z.string().nullable().optional() })
    .nullable()
    .optional(),
  propagationPolicy: z.string().nullable().optional(),
  ignoreStoreReadErrorWithClusterBreakingPotential: z.boolean().nullable().optional(),
});
/** The options of a delete or deletecollection (spec doc 1 §2.8). */
export type DeleteOptions = z.infer<typeof DeleteOptionsSchema>;
