import { exceedsDepth, mayHoldDuplicateKeys } from '@orchard/meta/internal';
import { isMap, isScalar, isSeq, parseAllDocuments, stringify, type Node as YamlNode } from 'yaml';
import { type Codec, CodecError } from './codec.js';
import { decodeUtf8 } from './json.js';
import { mediaTypes } from './media-type.js';
import { checkYamlBounds, defaultYamlLimits, type YamlLimits } from './yaml-bounds.js';

const encoder = new TextEncoder();

/** A key that appears twice in one YAML mapping (the last value wins, as with JSON). */
export interface YamlDuplicate {
  /** 1-based line of the repeated key. */
  line: number;
  key: string;
}

/** The text upstream's YAML decoder gives for a duplicate key. */
export function yamlDuplicateMessage(d: YamlDuplicate): string {
  return `line ${d.line}: key ${JSON.stringify(d.key)} already set in map`;
}

/**
 * Parses one YAML document into a JSON-form value and lists its duplicate keys. YAML 1.2 core
 * schema (so `yes`/`no` stay strings); anchors pointing nowhere, more than one document, more than
 * 100 alias expansions and bodies over `limits` are `Malformed`. Linear in the body: JSON text (a
 * YAML subset, and what kubectl sends even as `apply-patch+yaml`) takes `JSON.parse` when it holds
 * no duplicate key, and duplicates are found with one set per mapping.
 */
export function parseYamlDocument(
  text: string,
  mediaType: string = mediaTypes.yaml,
  limits: YamlLimits = defaultYamlLimits,
): { value: unknown; duplicates: YamlDuplicate[] } {
  const json = parseAsJson(text, mediaType, limits);
  if (json !== undefined) return { value: json.value, duplicates: [] };
  checkYamlBounds(text, mediaType, limits);
  const malformed = (message: string) =>
    new CodecError('Malformed', mediaType, `error converting YAML to JSON: ${message.split('\n')[0]}`);
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false });
  } catch (e) {
    throw malformed((e as Error).message);
  }
  // The EmptyStream form: no document at all.
  if (!Array.isArray(docs)) return { value: null, duplicates: [] };
  const nonEmpty = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (nonEmpty.length > 1) throw malformed('the body holds more than one YAML document');
  const doc = nonEmpty[0];
  if (!doc) return { value: null, duplicates: [] };
  const firstError = doc.errors[0];
  if (firstError) throw malformed(firstError.message);
  const duplicates = findDuplicateKeys(doc.contents, text);
  try {
    return { value: doc.toJS({ maxAliasCount: 100 }), duplicates };
  } catch (e) {
    throw malformed((e as Error).message);
  }
}

/** As `parseYamlDocument`, with a duplicate key `Malformed` (upstream's strict YAML decoding). */
export function parseYaml(text: string, mediaType: string = mediaTypes.yaml, limits?: YamlLimits): unknown {
  const { value, duplicates } = parseYamlDocument(text, mediaType, limits);
  const first = duplicates[0];
  if (first)
    throw new CodecError(
      'Malformed',
      mediaType,
      `error converting YAML to JSON: ${yamlDuplicateMessage(first)}`,
    );
  return value;
}

/** The value of `text` when it is duplicate-free JSON within the depth bound; undefined to parse it as YAML. */
function parseAsJson(text: string, mediaType: string, limits: YamlLimits): { value: unknown } | undefined {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // flow-style YAML that is not JSON
  }
  if (exceedsDepth(value, limits.maxDepth))
    throw new CodecError(
      'Malformed',
      mediaType,
      `error converting YAML to JSON: the document nests collections more than ${limits.maxDepth} levels deep`,
    );
  return mayHoldDuplicateKeys(text, value) ? undefined : { value };
}

/** Duplicate scalar keys of every mapping, in document order (iterative; the bounds check ran first). */
function findDuplicateKeys(root: unknown, text: string): YamlDuplicate[] {
  const out: YamlDuplicate[] = [];
  let lineOf: ((offset: number) => number) | undefined;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const keyNode = pair.key as YamlNode | null;
        const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
        if (seen.has(key)) {
          lineOf ??= lineIndex(text);
          out.push({ key, line: lineOf(keyNode?.range?.[0] ?? 0) });
        }
        seen.add(key);
      }
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]?.value);
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
  }
  return out;
}

function lineIndex(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
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
