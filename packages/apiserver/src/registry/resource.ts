import type { ApiObject, Flavor, StatusCause, StoredObject, UserInfo } from '@orchard/meta';
import type { StructuralSchema } from '@orchard/schema';
import type { ServerState } from '../state.js';

/** The verbs of spec doc 1 §4.2, verbatim. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** Every verb of spec doc 1 an ordinary resource serves. */
export const allObjectVerbs: readonly Verb[] = Object.freeze([
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
]);

/** What a strategy hook may look at: the flavor, the user, whether the write persists. */
export interface StrategyContext {
  readonly flavor: Flavor;
  readonly dryRun: boolean;
  /** The sub-resource being written (`status`), or '' for the main resource. */
  readonly subresource: string;
}

/**
 * Per-type behaviour of writes, modelled on upstream's `RESTCreateStrategy`/`RESTUpdateStrategy`.
 * Hooks mutate `obj` in place. `prepareForUpdate` and `validateUpdate` run inside a compare-and-swap
 * retry loop, so they must be pure functions of (obj, old). Validation returns causes; any cause
 * makes the write fail with 422 Invalid.
 */
export interface ResourceStrategy {
  /** Clear fields the client may not set on create (e.g. `status`), set type-owned defaults. */
  prepareForCreate?(obj: ApiObject, ctx: StrategyContext): void;
  /** Carry over fields the client may not change on update (e.g. `status` on the main resource). */
  prepareForUpdate?(obj: ApiObject, old: StoredObject, ctx: StrategyContext): void;
  validate?(obj: ApiObject, ctx: StrategyContext): StatusCause[];
  validateUpdate?(obj: ApiObject, old: StoredObject, ctx: StrategyContext): StatusCause[];
  /** Field selector values of an object beyond `metadata.name`/`metadata.namespace` (e.g. Secret `type`). */
  selectableFields?(obj: ApiObject): Record<string, string>;
  /**
   * The first delete of a live object (upstream: a type's own REST `Delete`, e.g. a CRD's): mutate
   * the object before the deletion state machine sees it, typically to add a finalizer that the
   * type's controller removes once its cleanup is done. Runs inside the delete's compare-and-swap
   * loop, so it must be a pure function of `obj`; not called for an object already Terminating.
   */
  prepareForDelete?(obj: StoredObject, ctx: { readonly flavor: Flavor }): void;
}

/** A sub-resource served under `<resource>/<name>/<subresource>`. */
export interface SubresourceDefinition {
  readonly name: string;
  /** The kind the sub-resource speaks; defaults to the parent kind (`status`, `scale` differ). */
  readonly kind?: string;
  readonly group?: string;
  readonly version?: string;
  readonly verbs: readonly Verb[];
}

/**
 * A request for a resource that is not stored: a review (SelfSubjectReview, SelfSubjectAccessReview)
 * answers a POST with the body's `status` filled in. `user` is the authenticated caller.
 */
export type VirtualCreate = (
  obj: ApiObject,
  ctx: {
    readonly flavor: Flavor;
    readonly user: UserInfo;
    readonly namespace: string;
    /** The server's shared state (TokenReview reads its authenticators). */
    readonly server: ServerState;
  },
) => ApiObject | Promise<ApiObject>;

/** The release history of one version of a resource (spec doc 1 §9.3, §9.4), read against the emulated release. */
export interface VersionLifecycle {
  /** The first release serving it (`1.23`); at an older emulated release it is not served at all. */
  readonly introduced?: string;
  /** From this release on, every request to it gets the deprecation warning. */
  readonly deprecated?: string;
  /** From this release on it is off unless `--runtime-config` names it (upstream: deprecated + 3 when unset). */
  readonly removed?: string;
  /** What to use instead, named in the warning (`autoscaling/v2 HorizontalPodAutoscaler`). */
  readonly replacement?: { readonly group: string; readonly version: string; readonly kind: string };
}

/**
 * Converts an object of a multi-version resource to `toVersion` (hub-and-spoke through the storage
 * version). Gets a copy it may mutate; returns the object with `apiVersion` set to the target.
 * Must be lossless between versions of one release (spec doc 1 §9.3 rule 2).
 */
export type VersionConversion = (obj: ApiObject, toVersion: string) => ApiObject;

/** The caller's identity (spec doc 2 §2.1); defined in `@orchard/meta`, re-exported for the server's users. */
export type { UserInfo } from '@orchard/meta';

/**
 * One resource type served by the API: everything the generic handlers, discovery and storage need.
 * Adding a type (built-in or from a CRD) is adding one of these to the registry, never a route.
 */
export interface ResourceDefinition {
  /** API group ('' for core). */
  readonly group: string;
  /**
   * Served versions, the preferred first; the storage version first unless `storageVersion` says
   * otherwise. For built-ins, every version the server knows: `--runtime-config`, the stability
   * level and `lifecycle` at the emulated release decide which are served (`versions/served.ts`).
   */
  readonly versions: readonly string[];
  /** The version objects are stored at. Default: `versions[0]`. */
  readonly storageVersion?: string;
  /** Release history by version; a version without an entry is served in every release. */
  readonly lifecycle?: Readonly<Record<string, VersionLifecycle>>;
  /** Conversion between `versions` (built-ins); default: only `apiVersion` changes. */
  readonly convert?: VersionConversion;
  /** Plural, lower-case (URL segment): `configmaps`. */
  readonly resource: string;
  readonly singular: string;
  readonly kind: string;
  /** Always `<Kind>List` (spec doc 1 §2.3). */
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly Verb[];
  readonly subresources: readonly SubresourceDefinition[];
  /** The structural schema (pruning/validation/defaulting come later); undefined = schemaless. */
  readonly schema?: StructuralSchema;
  readonly strategy: ResourceStrategy;
  /** PUT of a missing object creates it (upstream `AllowCreateOnUpdate`; true for leases, events…). */
  readonly allowCreateOnUpdate: boolean;
  /**
   * DELETE answers with the deleted object instead of a success Status (upstream's per-kind
   * `ReturnDeletedObject`: namespaces, pods, services, service accounts, PVs, PVCs). Default false.
   */
  readonly returnDeletedObject: boolean;
  /** Not stored: POST answers from `virtualCreate` (reviews). */
  readonly virtualCreate?: VirtualCreate;
  /** Name validation for `metadata.name` (defaults to DNS-1123 subdomain). Returns error messages. */
  readonly validateName?: (name: string, prefix: boolean) => string[];
}

/** The fields `defineResource` derives when they are absent. */
type DerivedField =
  | 'listKind'
  | 'shortNames'
  | 'categories'
  | 'verbs'
  | 'subresources'
  | 'strategy'
  | 'allowCreateOnUpdate'
  | 'returnDeletedObject'
  | 'singular';

/** Fills the derivable fields of a definition. */
export function defineResource(
  def: Omit<ResourceDefinition, DerivedField> & Partial<Pick<ResourceDefinition, DerivedField>>,
): ResourceDefinition {
  return Object.freeze({
    listKind: `${def.kind}List`,
    singular: def.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    verbs: allObjectVerbs,
    subresources: [],
    strategy: {},
    allowCreateOnUpdate: false,
    returnDeletedObject: false,
    ...def,
  });
}
