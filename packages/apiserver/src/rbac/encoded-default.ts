/**
 * The default RBAC objects as frozen storage bytes (built once per process and flavor): a fresh
 * start writes ~130 default objects, and each differs from the last start's only in its uid and
 * creationTimestamp. Each object is kept as the bytes `ObjectStore.encode` gives it, cut around
 * those two values, so a create is three copies instead of a copy, a `JSON.stringify` and a UTF-8
 * encoding of the whole object.
 */

import type { StoredObject } from '@orchard/meta';
import { deepFreeze } from '../storage/shared-values.js';

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
 * The template of `expected` (no uid, creationTimestamp or resourceVersion of its own): the JSON of
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
    decoded: deepFreeze(JSON.parse(JSON.stringify(expected))),
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
