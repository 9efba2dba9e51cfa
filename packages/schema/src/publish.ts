/**
 * Publishing of OpenAPI documents: one OpenAPI 3.0 document per group version (`/openapi/v3/apis/apps/v1`),
 * the `/openapi/v3` index with content hashes, and one Swagger 2.0 document (`/openapi/v2`).
 * What kubectl 1.32 reads from them: `components.schemas` with the group-version-kind extension
 * (explain, client-side apply), and on each item path a `patch` operation listing the
 * `fieldValidation` parameter and the accepted patch media types (strategic merge only for built-ins).
 */

export { groupVersionPath, schemaName } from './openapi-names.js';
export { buildOpenApiV2 } from './openapi-v2-document.js';
export { buildOpenApiV3 } from './openapi-v3-document.js';
export type { PublishedResource } from './published-resource.js';
export { acceptedPatchTypes } from './published-resource.js';

/**
 * A fast, pure, deterministic content hash (two 32-bit FNV-1a lanes → 16 hex digits, upper
 * case like upstream's) for the `hash` query of `serverRelativeURL` and for ETags.
 */
export function contentHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 13);
  }
  return ((h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0')).toUpperCase();
}

/** The `/openapi/v3` index: `{paths: {"api/v1": {serverRelativeURL: "/openapi/v3/api/v1?hash=…"}}}`. */
export function buildOpenApiV3Index(docs: Record<string, { hash: string }>): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const key of Object.keys(docs).sort()) {
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${docs[key]!.hash}` };
  }
  return { paths };
}
