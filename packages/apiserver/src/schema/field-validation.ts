import { type Codec, parseYamlDocument } from '@orchard/codecs';
import { decodeUtf8, yamlDuplicateMessage } from '@orchard/codecs/internal';
import { errors } from '@orchard/meta';
import { exceedsDepth, maxNestingDepth } from '@orchard/meta/internal';
import { findDuplicateFieldsJson } from '@orchard/schema';
import { duplicateFieldMessage, unknownFieldMessage } from '@orchard/schema/internal';
import type { RequestContext } from '../context.js';

/**
 * Field validation of spec doc 1 §4.10: unknown and duplicate fields in POST/PUT/PATCH bodies,
 * reported per `fieldValidation` (Ignore, Warn = default, Strict).
 *
 * Duplicates are only visible in the body text, so they are found while decoding
 * (`decodeWithFieldValidation`) and remembered per request; unknown fields come from pruning in
 * the `schema` write step, which then calls `reportFieldProblems`.
 */
const duplicatesByRequest = new WeakMap<RequestContext, string[]>();

const textDecoder = new TextDecoder();

/** Records duplicate-field messages found in a request body. */
export function noteDuplicateFields(ctx: RequestContext, messages: readonly string[]): void {
  if (messages.length === 0) return;
  const list = duplicatesByRequest.get(ctx) ?? [];
  list.push(...messages);
  duplicatesByRequest.set(ctx, list);
}

export function duplicateFieldsOf(ctx: RequestContext): readonly string[] {
  return duplicatesByRequest.get(ctx) ?? [];
}

/**
 * Decodes a request body with `codec` and notes its duplicate fields. JSON goes through the codec
 * (so its errors are unchanged) and then a duplicate check that is nearly free for bodies without
 * duplicates; YAML is parsed allowing duplicate keys (the last wins, as with JSON) so that
 * Ignore/Warn can accept them; anything it cannot parse falls back to the codec for the error.
 */
export function decodeWithFieldValidation(ctx: RequestContext, codec: Codec, bytes: Uint8Array): unknown {
  let value: unknown;
  try {
    value = decode(ctx, codec, bytes);
  } catch (e) {
    if (e instanceof RangeError) throw tooDeep();
    throw e;
  }
  return value;
}

/** 400 for a body nested deeper than `maxNestingDepth` (native serialization would overflow). */
export function tooDeep(): Error {
  return errors.badRequest(
    `the request body nests objects and arrays more than ${maxNestingDepth} levels deep`,
  );
}

/** Throws `tooDeep()` when a decoded value nests too deeply. */
export function checkDepth(value: unknown): void {
  if (exceedsDepth(value, maxNestingDepth)) throw tooDeep();
}

function decode(ctx: RequestContext, codec: Codec, bytes: Uint8Array): unknown {
  const flavor = ctx.server.flavor;
  const ignore = ctx.query.fieldValidation === 'Ignore';
  if (codec.mediaType === 'application/json') {
    const value = codec.decode(bytes, { flavor });
    checkDepth(value);
    if (!ignore) {
      const text = textDecoder.decode(bytes);
      noteDuplicateFields(ctx, findDuplicateFieldsJson(text, value).map(duplicateFieldMessage));
    }
    return value;
  }
  if (codec.mediaType === 'application/yaml') {
    const { value, duplicates } = parseYamlDocument(decodeUtf8(bytes, codec.mediaType));
    checkDepth(value);
    if (!ignore) noteDuplicateFields(ctx, duplicates.map(yamlDuplicateMessage));
    return value;
  }
  const value = codec.decode(bytes, { flavor });
  checkDepth(value);
  return value;
}

/**
 * Reports unknown fields (paths removed by pruning) and the request's duplicate fields:
 * Strict → 400 BadRequest listing all of them; Warn (default) → one `Warning` per field; Ignore → nothing.
 * `strictError` builds the Strict error from its message (create and update wrap it as upstream's
 * decoder failure; patch answers the bare message).
 */
export function reportFieldProblems(
  ctx: RequestContext,
  unknownPaths: readonly string[],
  strictError: (message: string) => Error = errors.badRequest,
): void {
  const level = ctx.query.fieldValidation ?? 'Warn';
  if (level === 'Ignore') return;
  const messages = [...unknownPaths.map(unknownFieldMessage), ...duplicateFieldsOf(ctx)];
  if (messages.length === 0) return;
  if (level === 'Strict') throw strictError(`strict decoding error: ${messages.join(', ')}`);
  for (const m of messages) if (!ctx.warnings.includes(m)) ctx.warnings.push(m);
}
