/**
 * The PATCH media types (spec doc 1 §4.9): the one list every package names them from (the
 * patch appliers, the published OpenAPI, codecs and the scale subresource).
 */
export const patchMediaTypes = Object.freeze({
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
  applyCbor: 'application/apply-patch+cbor',
} as const);
