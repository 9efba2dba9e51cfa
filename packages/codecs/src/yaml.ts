import { parseAllDocuments, stringify } from 'yaml';
import { type Codec, CodecError } from './codec.js';
import { decodeUtf8 } from './json.js';
import { mediaTypes } from './media-type.js';

const encoder = new TextEncoder();

/**
 * Parses one YAML document into a JSON-form value. YAML 1.2 core schema (so `yes`/`no` stay
 * strings); duplicate keys, anchors pointing nowhere and more than one document are `Malformed`.
 * JSON is valid YAML, so apply bodies sent as JSON parse here too.
 */
export function parseYaml(text: string, mediaType: string = mediaTypes.yaml): unknown {
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: false });
  } catch (e) {
    throw new CodecError('Malformed', mediaType, `error converting YAML to JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(docs)) {
    // The EmptyStream form: no document at all.
    return null;
  }
  const nonEmpty = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (nonEmpty.length > 1) {
    throw new CodecError(
      'Malformed',
      mediaType,
      'error converting YAML to JSON: the body holds more than one YAML document',
    );
  }
  const doc = nonEmpty[0];
  if (!doc) return null;
  const firstError = doc.errors[0];
  if (firstError) {
    throw new CodecError(
      'Malformed',
      mediaType,
      `error converting YAML to JSON: ${firstError.message.split('\n')[0]}`,
    );
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new CodecError('Malformed', mediaType, `error converting YAML to JSON: ${(e as Error).message}`);
  }
}

/** `application/yaml` for requests and responses (spec doc 1 §4.3). YAML watch streams are not offered. */
export const yamlCodec: Codec = Object.freeze({
  mediaType: mediaTypes.yaml,
  aliases: Object.freeze(['application/x-yaml', 'text/yaml', 'text/x-yaml']),
  binary: false,
  decode(body: Uint8Array): unknown {
    return parseYaml(decodeUtf8(body, mediaTypes.yaml));
  },
  encode(value: unknown): Uint8Array {
    return encoder.encode(stringify(value, { lineWidth: 0, aliasDuplicateObjects: false }));
  },
});
