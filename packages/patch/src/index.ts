/**
 * @orchard/patch — JSON Patch (RFC 6902), JSON Merge Patch (RFC 7386), strategic merge patch with
 * its directives, and two/three-way patch creation for client-side apply. Pure: no Node built-ins.
 */
export type { PatchErrorCode } from './errors.js';
export { isPatchError, PatchError } from './errors.js';
export type { JsonPatchOperation, JsonPatchOptions } from './json-patch.js';
export { applyJsonPatch, defaultJsonPatchOptions, parseJsonPatch, parseJsonPatchText } from './json-patch.js';
export { applyMergePatch, createMergePatch } from './merge-patch.js';
export { applyStrategicMergePatch, directives, stripDirectives } from './strategic.js';
export type { DiffOptions } from './three-way.js';
export { createThreeWayMergePatch, createTwoWayMergePatch } from './three-way.js';
