import { TimeParseError } from '@orchard/meta';
import { getOwn, parseRfc3339Parts } from '@orchard/meta/internal';
import { fieldSchema, type StructuralSchema } from '@orchard/schema';
import { objectMetaSchema } from '@orchard/schema/internal';

/**
 * The value errors upstream's typed JSON decoder raises before any validation runs, for built-in
 * kinds: an integer field holding a number that does not fit its Go type (`1e300` in an int64,
 * `3.5` in an int32) and a timestamp field holding something that is not RFC 3339
 * (`creationTimestamp: "yesterday"`). Returns the decoder's message for the first one, or undefined.
 * Iterative, so any depth the body bound allows is fine.
 */
export function firstGoDecodingError(
  obj: unknown,
  schema: StructuralSchema,
  kind: string,
): string | undefined {
  const stack: [unknown, StructuralSchema | undefined, string][] = [[obj, schema, '']];
  while (stack.length > 0) {
    const [v, s, path] = stack.pop() as [unknown, StructuralSchema | undefined, string];
    if (s === undefined || v === null || v === undefined) continue;
    if (typeof v === 'number' && s.type === 'integer' && !s.intOrString) {
      const int32 = s.format === 'int32';
      const fits = Number.isInteger(v) && Math.abs(v) <= (int32 ? 2 ** 31 : 2 ** 63);
      if (!fits)
        return `json: cannot unmarshal number ${String(v)} into Go struct field ${kind}.${path} of type ${int32 ? 'int32' : 'int64'}`;
      continue;
    }
    if (typeof v === 'string' && s.format === 'date-time') {
      try {
        parseRfc3339Parts(v);
      } catch (e) {
        if (e instanceof TimeParseError) return e.message;
        throw e;
      }
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], s.items, `${path}[${i}]`]);
      continue;
    }
    if (typeof v !== 'object') continue;
    for (const k of Object.keys(v)) {
      const child = path === '' && k === 'metadata' ? objectMetaSchema : fieldSchema(s, k);
      stack.push([getOwn(v, k), child, path === '' ? k : `${path}.${k}`]);
    }
  }
  return undefined;
}
