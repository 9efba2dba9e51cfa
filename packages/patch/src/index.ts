/**
 * @orchard/patch — JSON Patch (RFC 6902), JSON Merge Patch (RFC 7386), strategic merge patch with
 * its directives, and two/three-way patch creation for client-side apply. Pure: no Node built-ins.
 */
export type { PatchErrorCode } from './errors.js';
export { PatchError, isPatchError } from './errors.js';
export type { JsonPatchOperation, JsonPatchOptions } from './json-patch.js';
export { applyJsonPatch, parseJsonPatch, parseJsonPatchText, defaultJsonPatchOptions } from './json-patch.js';
export { applyMergePatch, createMergePatch, deepEqual } from './merge-patch.js';
export { applyStrategicMergePatch, stripDirectives, directives } from './strategic.js';
export type { DiffOptions } from './three-way.js';
export { createTwoWayMergePatch, createThreeWayMergePatch } from './three-way.js';
