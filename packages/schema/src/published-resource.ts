/** A resource as the published OpenAPI documents describe it, and the PATCH media types it accepts. */
import { patchMediaTypes } from '@orchard/meta';
import type { StructuralSchema } from './structural.js';

/** A resource as the documents describe it. */
export interface PublishedResource {
  group: string;
  version: string;
  kind: string;
  /** Plural resource name. */
  resource: string;
  namespaced: boolean;
  schema: StructuralSchema;
  /** Built-in types accept strategic merge patches and get upstream-style schema names. */
  builtin: boolean;
  /** Served sub-resources (`status`, `scale`). */
  subresources?: readonly string[];
  /** Verbs served (default all). */
  verbs?: readonly string[];
}

/** The media types a PATCH on this resource accepts, in the order the document lists them. */
export function acceptedPatchTypes(builtin: boolean): string[] {
  return builtin
    ? [patchMediaTypes.json, patchMediaTypes.merge, patchMediaTypes.strategic, patchMediaTypes.apply]
    : [patchMediaTypes.json, patchMediaTypes.merge, patchMediaTypes.apply];
}
