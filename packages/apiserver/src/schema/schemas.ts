import type { Flavor } from '@orchard/meta';
import { builtinSchema, type StructuralSchema } from '@orchard/schema';
import type { ConversionWebhookConfig } from '../crd/conversion-webhook.js';
import type { ResourceDefinition } from '../registry/resource.js';

/** What a custom resource type carries beyond its `ResourceDefinition`. */
export interface CustomResourceInfo {
  /** Served versions → schema of that version. */
  readonly schemas: ReadonlyMap<string, StructuralSchema>;
  readonly storageVersion: string;
  /** The CRD's `additionalPrinterColumns` per version (for Table output). */
  readonly printerColumns: ReadonlyMap<string, readonly PrinterColumn[]>;
  /** The name of the CRD serving this resource. */
  readonly crdName: string;
  /** Warning text per deprecated served version (`deprecated: true` in the CRD). */
  readonly deprecations?: ReadonlyMap<string, string>;
  /** The `/scale` sub-resource's JSON paths, when the CRD declares one. */
  readonly scale?: ScalePaths;
  /** `spec.conversion.webhook` of a CRD whose strategy is `Webhook`. */
  readonly webhook?: ConversionWebhookConfig;
}

/** Where a resource keeps what its `/scale` sub-resource shows (`.spec.replicas` …). */
export interface ScalePaths {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  format?: string;
  description?: string;
  priority?: number;
}

const customResources = new WeakMap<ResourceDefinition, CustomResourceInfo>();

/** Marks a definition as a custom resource served from a CRD. */
export function registerCustomResource(def: ResourceDefinition, info: CustomResourceInfo): void {
  customResources.set(def, info);
}

export function customResourceInfo(def: ResourceDefinition): CustomResourceInfo | undefined {
  return customResources.get(def);
}

/** Custom resources take no strategic merge patch and report type errors as 422 (their validator's). */
export function isCustomResource(def: ResourceDefinition): boolean {
  return customResources.has(def);
}

/**
 * The structural schema of a resource at a version: the CRD's schema for custom resources, the
 * definition's own schema, else Orchard's built-in schema of the kind; undefined = schemaless
 * (nothing is pruned or validated beyond the type's own rules).
 */
export function schemaFor(
  def: ResourceDefinition,
  version: string,
  flavor: Flavor,
): StructuralSchema | undefined {
  const cr = customResources.get(def);
  if (cr) return cr.schemas.get(version);
  return def.schema ?? builtinSchema(flavor, def.group, version, def.kind);
}
