/**
 * The Protobuf wire form (spec doc 1 §2.5): the 4-byte prefix `6b 38 73 00`, then a
 * `runtime.Unknown` whose `typeMeta` names the kind and whose `raw` holds the kind's message.
 * Watch streams (§4.6) are length-prefixed frames (4-byte big-endian length) of a bare
 * `meta.v1.WatchEvent` whose `object.raw` is the object's own prefixed envelope, as upstream.
 */
import type { ApiObject, Flavor, GroupVersionKind, WatchEvent, WatchEventType } from '@orchard/meta';
import { parseApiVersion } from '@orchard/meta';
import type { Type } from 'protobufjs';
import { type ByteChunks, type ChunkPool, packChunks, packSection } from '../chunks.js';
import { CodecError, type ListSection } from '../codec.js';
import { WireDecodeError } from './errors.js';
import { messageType, protobufMessageName } from './registry.js';
import { ConversionError, decodeMessage, encodeMessage as encodeWire } from './wire-codec.js';

/** The 4 bytes every Protobuf body starts with (`k8s\0`). */
export const protobufPrefix: readonly number[] = Object.freeze([0x6b, 0x38, 0x73, 0x00]);
const prefixBytes = Uint8Array.from(protobufPrefix);

const unknownMessage = 'k8s.io.apimachinery.pkg.runtime.Unknown';
const watchEventMessage = 'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent';
const watchEventTypes: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** True when the kind has a Protobuf message: built-in kinds only; custom resources never. */
export function protobufSupported(gvk: GroupVersionKind, flavor: Flavor): boolean {
  return protobufMessageName(gvk, flavor) !== undefined;
}

/**
 * Rejects bytes that do not start with the Protobuf prefix. Clients call it on every Protobuf
 * response: a different prefix signals a future incompatible format (spec doc 1 §2.5).
 * Throws `WireDecodeError` `BadPrefix` (or `Truncated` when shorter than the prefix).
 */
export function assertProtobufPrefix(
  bytes: Uint8Array,
  mediaType = 'application/vnd.kubernetes.protobuf',
): void {
  const n = Math.min(bytes.length, 4);
  for (let i = 0; i < n; i++) {
    if (bytes[i] !== protobufPrefix[i])
      throw new WireDecodeError(
        'BadPrefix',
        mediaType,
        'the body does not start with the Protobuf prefix 6b 38 73 00',
      );
  }
  if (bytes.length < 4)
    throw new WireDecodeError('Truncated', mediaType, 'the body is shorter than the Protobuf prefix');
}

function notEncodable(flavor: Flavor, message: string): CodecError {
  return new CodecError('NotEncodable', flavor.protobufMediaType, message);
}

function gvkOf(obj: { apiVersion?: unknown; kind?: unknown }, flavor: Flavor): GroupVersionKind {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || !obj.apiVersion || !obj.kind)
    throw notEncodable(flavor, 'the object has no apiVersion and kind to encode as Protobuf');
  return { ...parseApiVersion(obj.apiVersion), kind: obj.kind };
}

function typeFor(gvk: GroupVersionKind, flavor: Flavor): Type | undefined {
  const name = protobufMessageName(gvk, flavor);
  return name === undefined ? undefined : messageType(name);
}

function encodeMessage(type: Type, value: unknown, flavor: Flavor): Uint8Array {
  try {
    return encodeWire(type, value, flavor.extensionPrefix);
  } catch (e) {
    if (e instanceof ConversionError)
      throw notEncodable(flavor, `cannot encode ${type.name} as Protobuf: ${e.message}`);
    throw e;
  }
}

function envelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  // Upstream (gogo) always writes contentEncoding and contentType, empty; so do we, for byte parity.
  const body = messageType(unknownMessage)
    .encode({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })
    .finish();
  const out = new Uint8Array(4 + body.length);
  out.set(prefixBytes, 0);
  out.set(body, 4);
  return out;
}

/**
 * Encodes an object, a `<Kind>List` or a `Status` as a whole Protobuf body (prefix included).
 * Throws `CodecError` `NotEncodable` for kinds without a Protobuf message (custom resources,
 * Table …) and for values that do not fit their message.
 */
export function encodeProtobuf(obj: ApiObject, flavor: Flavor): Uint8Array {
  const gvk = gvkOf(obj, flavor);
  const type = typeFor(gvk, flavor);
  if (!type) throw notEncodable(flavor, `${obj.apiVersion}, Kind=${obj.kind} has no Protobuf form`);
  return envelope(obj.apiVersion as string, gvk.kind, encodeMessage(type, obj, flavor));
}

/** `encodeProtobuf` for a list (`items` + `metadata`); the list's kind must be `<Kind>List`. */
export function encodeProtobufList(
  list: ApiObject & { items: readonly ApiObject[] },
  flavor: Flavor,
): Uint8Array {
  return encodeProtobuf(list, flavor);
}

/** The `raw` field (2) of a body's `runtime.Unknown` envelope: the object's own message. */
function rawOfEnvelope(body: Uint8Array, mediaType: string): Uint8Array {
  let at = 4;
  const varint = (): number => {
    let v = 0;
    for (let shift = 0; at < body.length && shift < 35; shift += 7) {
      const b = body[at++] as number;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
    throw new WireDecodeError('Truncated', mediaType, 'a truncated varint in an encoded list item');
  };
  while (at < body.length) {
    const tag = varint();
    if ((tag & 7) !== 2) break;
    const len = varint();
    if (tag >>> 3 === 2) return body.subarray(at, at + len);
    at += len;
  }
  throw new WireDecodeError('Malformed', mediaType, 'an encoded list item has no raw message');
}

function varintBytes(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** The Protobuf type of a `<Kind>List` and its `items` field; `NotEncodable` when it has none. */
function listTypeOf(list: ApiObject, flavor: Flavor): { type: Type; itemsId: number; kind: string } {
  const gvk = gvkOf(list, flavor);
  const type = typeFor(gvk, flavor);
  const itemsField = type?.fields.items;
  if (!type || !itemsField)
    throw notEncodable(flavor, `${list.apiVersion}, Kind=${list.kind} has no Protobuf form`);
  return { type, itemsId: itemsField.id, kind: gvk.kind };
}

/**
 * Serialize once: the items section of a `<Kind>List` from the bodies `encodeProtobuf` gave for
 * its items: each item's message copied out of its envelope (not re-encoded) behind the `items`
 * field's key and length.
 */
export function protobufListSection(
  list: ApiObject,
  itemBodies: readonly Uint8Array[],
  flavor: Flavor,
  pool?: ChunkPool,
): ListSection {
  const tag = varintBytes((listTypeOf(list, flavor).itemsId << 3) | 2);
  const parts: Uint8Array[] = [];
  for (const body of itemBodies) {
    const item = rawOfEnvelope(body, flavor.protobufMediaType);
    parts.push(Uint8Array.from([...tag, ...varintBytes(item.length)]), item);
  }
  return packSection(parts, itemBodies.length, pool);
}

/**
 * Serialize once: a `<Kind>List` body from `list` (holding `items: []`) and its items section, byte
 * for byte what `encodeProtobufList` of the whole list gives, as chunks: the `runtime.Unknown`
 * envelope, whose fields are written in field order (typeMeta, raw, contentEncoding, contentType),
 * so its bytes are the typeMeta field, raw's key and length, the list's own fields, the section,
 * then the two empty strings.
 */
export function joinProtobufList(list: ApiObject, section: ListSection, flavor: Flavor): ByteChunks {
  const { type, kind } = listTypeOf(list, flavor);
  const head = encodeMessage(type, list, flavor);
  const unknown = messageType(unknownMessage);
  const typeMeta = unknown.encode({ typeMeta: { apiVersion: list.apiVersion as string, kind } }).finish();
  const rawKey = Uint8Array.from([0x12, ...varintBytes(head.length + section.length)]);
  const tail = unknown.encode({ contentEncoding: '', contentType: '' }).finish();
  return [...packChunks([prefixBytes, typeMeta, rawKey, head]), ...section.chunks, tail];
}

/** Maps what protobufjs throws on bad input to our typed error. */
function decodeFailure(e: unknown, mediaType: string, what: string): WireDecodeError {
  if (e instanceof WireDecodeError) return e;
  if (e instanceof ConversionError)
    return new WireDecodeError('Malformed', mediaType, `${what}: ${e.message}`);
  const msg = e instanceof Error ? e.message : String(e);
  if (e instanceof RangeError && /index out of range/.test(msg))
    return new WireDecodeError('Truncated', mediaType, `${what}: the body ends inside a value`);
  return new WireDecodeError('Malformed', mediaType, `${what}: ${msg}`);
}

function decodeRaw(type: Type, bytes: Uint8Array): Record<string, unknown> {
  return type.decode(bytes) as unknown as Record<string, unknown>;
}

interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

function openEnvelope(bytes: Uint8Array, mediaType: string): Envelope {
  assertProtobufPrefix(bytes, mediaType);
  let unknown: Record<string, unknown>;
  try {
    unknown = decodeRaw(messageType(unknownMessage), bytes.subarray(4));
  } catch (e) {
    throw decodeFailure(e, mediaType, 'invalid Protobuf envelope');
  }
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const contentEncoding = unknown.contentEncoding as string | undefined;
  const contentType = unknown.contentType as string | undefined;
  if (contentEncoding)
    throw new WireDecodeError(
      'Malformed',
      mediaType,
      `unsupported Protobuf contentEncoding ${JSON.stringify(contentEncoding)}`,
    );
  if (contentType && contentType !== mediaType)
    throw new WireDecodeError(
      'Malformed',
      mediaType,
      `unsupported Protobuf contentType ${JSON.stringify(contentType)}`,
    );
  const apiVersion = typeMeta.apiVersion ?? '';
  const kind = typeMeta.kind ?? '';
  if (!apiVersion || !kind)
    throw new WireDecodeError('UnknownType', mediaType, 'the Protobuf envelope names no apiVersion and kind');
  return { apiVersion, kind, raw: (unknown.raw as Uint8Array | undefined) ?? new Uint8Array(0) };
}

/**
 * Decodes a whole Protobuf body into the JSON form of the object (`apiVersion` and `kind` from
 * the envelope's `typeMeta`). Never crashes on bad input: throws `WireDecodeError` (a
 * `CodecError` `Malformed`) with reason `BadPrefix`, `Truncated`, `UnknownType` or `Malformed`.
 */
export function decodeProtobuf(bytes: Uint8Array, flavor: Flavor): ApiObject {
  const mediaType = flavor.protobufMediaType;
  const env = openEnvelope(bytes, mediaType);
  const type = typeFor({ ...parseApiVersion(env.apiVersion), kind: env.kind }, flavor);
  if (!type)
    throw new WireDecodeError(
      'UnknownType',
      mediaType,
      `no Protobuf message for ${env.apiVersion}, Kind=${env.kind}`,
    );
  try {
    const fields = decodeMessage(type, env.raw, flavor.extensionPrefix);
    return { apiVersion: env.apiVersion, kind: env.kind, ...fields };
  } catch (e) {
    throw decodeFailure(e, mediaType, `invalid ${env.kind}`);
  }
}

/** `decodeProtobuf` for a list body; throws `UnknownType` when the body is not a `<Kind>List`. */
export function decodeProtobufList(bytes: Uint8Array, flavor: Flavor): ApiObject & { items: ApiObject[] } {
  const obj = decodeProtobuf(bytes, flavor);
  if (!obj.kind?.endsWith('List'))
    throw new WireDecodeError('UnknownType', flavor.protobufMediaType, `expected a list, got ${obj.kind}`);
  return { ...obj, items: (obj.items as ApiObject[] | undefined) ?? [] };
}

/** The bare `WatchEvent` message of one event (no frame length, no prefix), as upstream streams it. */
export function encodeProtobufWatchEventMessage(event: WatchEvent, flavor: Flavor): Uint8Array {
  const object = encodeProtobuf(event.object, flavor);
  return messageType(watchEventMessage)
    .encode({ type: event.type, object: { raw: object } })
    .finish();
}

/** One watch frame: 4-byte big-endian length, then the `WatchEvent` message. */
export function encodeProtobufWatchEvent(event: WatchEvent, flavor: Flavor): Uint8Array {
  const msg = encodeProtobufWatchEventMessage(event, flavor);
  const out = new Uint8Array(4 + msg.length);
  new DataView(out.buffer).setUint32(0, msg.length, false);
  out.set(msg, 4);
  return out;
}

/** Decodes one `WatchEvent` message (a frame without its length). Throws `WireDecodeError`. */
export function decodeProtobufWatchEvent(message: Uint8Array, flavor: Flavor): WatchEvent {
  const mediaType = flavor.protobufMediaType;
  let ev: Record<string, unknown>;
  try {
    ev = decodeRaw(messageType(watchEventMessage), message);
  } catch (e) {
    throw decodeFailure(e, mediaType, 'invalid watch event');
  }
  const type = ev.type as string | undefined;
  if (type === undefined || !watchEventTypes.has(type))
    throw new WireDecodeError('Malformed', mediaType, `invalid watch event type ${JSON.stringify(type)}`);
  const raw = (ev.object as { raw?: Uint8Array } | undefined)?.raw;
  if (!raw) throw new WireDecodeError('Malformed', mediaType, 'the watch event carries no object');
  return { type: type as WatchEventType, object: decodeProtobuf(raw, flavor) };
}

/** The largest watch frame `ProtobufFrameReader` accepts (upstream's stream decoder uses 16 MiB). */
export const maxProtobufFrameBytes = 16 * 1024 * 1024;

/**
 * Splits a Protobuf watch stream into frames. Feed it chunks as they arrive; it returns the
 * complete frames (without their length) and keeps the rest. A frame longer than
 * `maxFrameBytes` throws `WireDecodeError` `Malformed` instead of buffering without bound.
 */
export class ProtobufFrameReader {
  private buf: Uint8Array = new Uint8Array(0);

  constructor(private readonly maxFrameBytes = maxProtobufFrameBytes) {}

  push(chunk: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.buf.length + chunk.length);
    joined.set(this.buf, 0);
    joined.set(chunk, this.buf.length);
    const frames: Uint8Array[] = [];
    let at = 0;
    while (joined.length - at >= 4) {
      const len = new DataView(joined.buffer, joined.byteOffset + at, 4).getUint32(0, false);
      if (len > this.maxFrameBytes)
        throw new WireDecodeError(
          'Malformed',
          'application/vnd.kubernetes.protobuf',
          `watch frame of ${len} bytes exceeds the limit`,
        );
      if (joined.length - at - 4 < len) break;
      frames.push(joined.slice(at + 4, at + 4 + len));
      at += 4 + len;
    }
    this.buf = joined.slice(at);
    return frames;
  }

  /** Bytes received but not yet part of a complete frame (non-zero at end of stream = truncated). */
  get pending(): number {
    return this.buf.length;
  }
}
