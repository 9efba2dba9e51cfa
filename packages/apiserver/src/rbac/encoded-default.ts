/**
 * The default RBAC objects as frozen storage bytes (built once per process and flavor): a fresh
 * start writes ~130 default objects, and each differs from the last start's only in its uid and
 * creationTimestamp. Each object is kept as the bytes `ObjectStore.encode` gives it, cut around
 * those two values, so a create is three copies instead of a copy, a `JSON.stringify` and a UTF-8
 * encoding of the whole object.
 */

import type { StoredObject } from '@orchard/meta';
import { deepFreeze } from '@orchard/meta/internal';

const encoder = new TextEncoder();
const uidMark = 'orchard:default-policy:uid';
const timeMark = 'orchard:default-policy:creationTimestamp';

/** An object's storage bytes with holes for its uid and creationTimestamp. */
export interface EncodedDefault {
  readonly head: Uint8Array;
  readonly middle: Uint8Array;
  readonly tail: Uint8Array;
  /**
   * The object as decoding its bytes gives it (key order included), deep-frozen, without uid,
   * creationTimestamp and resourceVersion: the shared parts of every server's decoded copy.
   */
  readonly decoded: Readonly<Record<string, any>>;
}

/**
 * The template of `expected` (JSON data without uid, creationTimestamp or resourceVersion of its
 * own; frozen here where it is not yet): the JSON of
 * `{...expected, metadata: {...expected.metadata, uid, creationTimestamp}}` cut around both values,
 * or undefined when the object's own text holds a mark (then the caller encodes it as usual).
 */
export function encodeDefault(expected: Readonly<Record<string, any>>): EncodedDefault | undefined {
  const text = JSON.stringify({
    ...expected,
    metadata: { ...expected.metadata, uid: uidMark, creationTimestamp: timeMark },
  });
  const [head, rest, ...extraUid] = text.split(JSON.stringify(uidMark));
  if (rest === undefined || extraUid.length > 0) return undefined;
  const [middle, tail, ...extraTime] = rest.split(JSON.stringify(timeMark));
  if (tail === undefined || extraTime.length > 0 || head === undefined || middle === undefined)
    return undefined;
  return Object.freeze({
    head: encoder.encode(head),
    middle: encoder.encode(middle),
    tail: encoder.encode(tail),
    // `expected` is JSON data (the translated policy, frozen, and settled rules made of its frozen
    // rules): decoding its text gives an equal object in the same key order, so it is its own
    // decoded form. A parsed copy cost a process's first start ~3 ms (tested equal).
    decoded: deepFreeze(expected),
  });
}

/**
 * The bytes of one created default object: `uid` (written as a JSON string) and `creationTimestamp`
 * (JSON-encoded, UTF-8) in the template's holes.
 */
export function fillDefault(
  t: EncodedDefault,
  uid: string,
  creationTimestamp: Uint8Array,
  alloc: (size: number) => Uint8Array = (size) => new Uint8Array(size),
): Uint8Array {
  // The uid is encoded straight into the result (a buffer of its own first cost an allocation each).
  const uidJson = JSON.stringify(uid);
  const uidLength = Buffer.byteLength(uidJson);
  const out = alloc(t.head.length + uidLength + t.middle.length + creationTimestamp.length + t.tail.length);
  out.set(t.head, 0);
  let at = t.head.length;
  encoder.encodeInto(uidJson, out.subarray(at, at + uidLength));
  at += uidLength;
  for (const part of [t.middle, creationTimestamp, t.tail]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Characters of a canonical uid (`newUid`): 36, all ASCII. */
const uidWidth = 36;

/**
 * The default objects of one kind laid out in one buffer, each as `fillDefault` gives it for a
 * canonical uid (36 ASCII characters) and a creationTimestamp of `timeWidth` bytes, the holes left
 * blank: a start copies the buffer once and writes each uid and the time in place, instead of
 * building each object's bytes apart (a warm start spent more time in that than in its writes).
 */
export interface EncodedBlock {
  readonly bytes: Uint8Array;
  /** The bytes of the JSON creationTimestamp the holes take. */
  readonly timeWidth: number;
  /** Each object's span in `bytes`, and where its uid's characters and its creationTimestamp go. */
  readonly spans: readonly {
    readonly start: number;
    readonly end: number;
    readonly uidAt: number;
    readonly timeAt: number;
  }[];
}

/** The block of `templates` (in order) for creationTimestamps of `timeWidth` bytes. */
export function encodeBlock(templates: readonly EncodedDefault[], timeWidth: number): EncodedBlock {
  const uidJson = uidWidth + 2;
  let size = 0;
  for (const t of templates) size += t.head.length + uidJson + t.middle.length + timeWidth + t.tail.length;
  const bytes = new Uint8Array(size);
  const spans: EncodedBlock['spans'][number][] = [];
  let at = 0;
  for (const t of templates) {
    const start = at;
    bytes.set(t.head, at);
    at += t.head.length;
    bytes[at] = 0x22;
    const uidAt = at + 1;
    at += uidJson;
    bytes[at - 1] = 0x22;
    bytes.set(t.middle, at);
    at += t.middle.length;
    const timeAt = at;
    at += timeWidth;
    bytes.set(t.tail, at);
    at += t.tail.length;
    spans.push({ start, end: at, uidAt, timeAt });
  }
  return { bytes, timeWidth, spans };
}

/**
 * The block's objects with `uids[i]` and `creationTimestamp` (JSON, UTF-8) in place: views into one
 * new buffer, byte for byte what `fillDefault` gives each. Undefined when a uid is not 36 printable
 * ASCII characters without `"` or `\`, or the time's width is not the block's (then `fillDefault`).
 */
export function fillBlock(
  block: EncodedBlock,
  uids: readonly string[],
  creationTimestamp: Uint8Array,
): Uint8Array[] | undefined {
  if (creationTimestamp.length !== block.timeWidth || uids.length !== block.spans.length) return undefined;
  const out = block.bytes.slice();
  const values: Uint8Array[] = [];
  for (const [i, span] of block.spans.entries()) {
    const uid = uids[i]!;
    if (uid.length !== uidWidth) return undefined;
    for (let j = 0; j < uidWidth; j++) {
      const c = uid.charCodeAt(j);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return undefined;
      out[span.uidAt + j] = c;
    }
    out.set(creationTimestamp, span.timeAt);
    values.push(out.subarray(span.start, span.end));
  }
  return values;
}

/** Bytes per arena chunk: the ~130 default objects of a start fill a few. */
const arenaChunk = 64 * 1024;

/**
 * An allocator handing out views into shared 64 KiB chunks, for the default objects of one start:
 * each object in an `ArrayBuffer` of its own cost the collector an external allocation apiece, and
 * a warm start spent more time in it than in writing the objects. The objects live as long as the
 * server does, so nothing is pinned that would otherwise be freed (the memory store repacks them
 * after its first compaction anyway).
 */
export function createByteArena(): (size: number) => Uint8Array {
  let chunk = new Uint8Array(0);
  let at = 0;
  return (size) => {
    if (size > arenaChunk / 4) return new Uint8Array(size);
    if (at + size > chunk.length) {
      chunk = new Uint8Array(arenaChunk);
      at = 0;
    }
    const view = chunk.subarray(at, at + size);
    at += size;
    return view;
  };
}

/** `value` as a JSON string in UTF-8 (a uid or timestamp to fill in). */
export function jsonBytes(value: string): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/**
 * The decoded object of one created default object: what `ObjectStore.decode` gives for the bytes
 * of `fillDefault(t, jsonBytes(uid), jsonBytes(creationTimestamp))` stored at `revision`, frozen,
 * built without parsing (everything but its metadata is the template's, shared and frozen).
 */
export function decodedDefault(
  t: EncodedDefault,
  uid: string,
  creationTimestamp: string,
  revision: number,
): StoredObject {
  const metadata = Object.freeze({
    ...t.decoded.metadata,
    uid,
    creationTimestamp,
    resourceVersion: String(revision),
  });
  return Object.freeze({ ...t.decoded, metadata }) as StoredObject;
}
