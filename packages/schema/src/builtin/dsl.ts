/**
 * A tiny vocabulary for writing built-in type schemas as data. Internal to the builtin/ folder.
 */
import type { StructuralSchema } from '../structural.js';

type S = StructuralSchema;
type Extra = Partial<S>;

export const str = (description: string, extra: Extra = {}): S => ({ type: 'string', description, ...extra });
export const int32 = (description: string, extra: Extra = {}): S => ({
  type: 'integer',
  format: 'int32',
  description,
  ...extra,
});
export const int64 = (description: string, extra: Extra = {}): S => ({
  type: 'integer',
  format: 'int64',
  description,
  ...extra,
});
export const num = (description: string, extra: Extra = {}): S => ({ type: 'number', description, ...extra });
export const bool = (description: string, extra: Extra = {}): S => ({
  type: 'boolean',
  description,
  ...extra,
});
export const time = (description: string): S => ({ type: 'string', format: 'date-time', description });
export const bytes = (description: string): S => ({ type: 'string', format: 'byte', description });
export const intOrString = (description: string): S => ({ intOrString: true, description });
/** A resource quantity (`500m`, `1Gi`, `2`): a string or a number on the wire. */
export const quantity = (description: string): S => ({
  description,
  format: 'quantity',
  anyOf: [{ type: 'integer' }, { type: 'number' }, { type: 'string', format: 'quantity' }],
});

export const obj = (description: string, properties: Record<string, S>, extra: Extra = {}): S => ({
  type: 'object',
  description,
  properties,
  ...extra,
});
/** A granular map of strings (labels, annotations, data). */
export const strMap = (description: string): S => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string' },
});
export const mapOf = (description: string, values: S, extra: Extra = {}): S => ({
  type: 'object',
  description,
  additionalProperties: values,
  ...extra,
});
export const atomicList = (description: string, items: S): S => ({
  type: 'array',
  description,
  items,
  listType: 'atomic',
});
/** A list of scalars merged as a set (strategic merge: `patchStrategy: merge`). */
export const setList = (description: string, items: S): S => ({
  type: 'array',
  description,
  items,
  listType: 'set',
  patchStrategy: 'merge',
});
/** A list of objects keyed by `keys`; strategic merge uses the first key as `patchMergeKey`. */
export const mapList = (description: string, items: S, keys: string[], extra: Extra = {}): S => ({
  type: 'array',
  description,
  items,
  listType: 'map',
  listMapKeys: keys,
  patchStrategy: 'merge',
  patchMergeKey: keys[0]!,
  ...extra,
});
/** A plain list: atomic for field ownership and replaced by strategic merge. */
export const list = (description: string, items: S): S => ({ type: 'array', description, items });

/** The `apiVersion` and `kind` properties every built-in schema has. */
export const typeMetaProps = {
  apiVersion: str(
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
  ),
  kind: str(
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.',
  ),
};
