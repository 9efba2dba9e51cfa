import { Buffer } from 'node:buffer';
import type { KeyValue } from './store.js';

/**
 * A key's one live value once compaction has passed it, packed for the long haul into one
 * one-byte string: its modRevision and createRevision (7 bytes each, enough for any safe integer)
 * then its bytes, one char per byte (`latin1`). V8 keeps such a string in its bytes plus a 16-byte
 * header, where a `KeyValue` with its `Uint8Array` and `ArrayBuffer` costs ~240 B of heap over the
 * bytes: at 100k stored objects that was most of what the store held beyond the data (issue 18,
 * memory target). Reads build the `KeyValue` again, on bytes of its own.
 */
export type PackedValue = string;

const revisionBytes = 7;
const headerBytes = 2 * revisionBytes;

/** Packs `kv` (its key is the index's, not repeated). */
export function packValue(kv: KeyValue): PackedValue {
  const v = kv.value;
  const buf = Buffer.allocUnsafe(headerBytes + v.byteLength);
  writeRevision(buf, 0, kv.modRevision);
  writeRevision(buf, revisionBytes, kv.createRevision);
  buf.set(v, headerBytes);
  // One copy into one flat string (a concatenation would leave a two-part string behind).
  return buf.toString('latin1');
}

/** The packed value's modRevision. */
export function packedModRevision(packed: PackedValue): number {
  return readRevision(packed, 0);
}

/**
 * The packed value as the `KeyValue` of `key`, on bytes of its own. They come from Node's buffer
 * pool, as `Buffer.from(string)` gives (a fresh `ArrayBuffer` each made a read ~5× dearer): a
 * reader that keeps the bytes keeps their 8 KiB pool slab alive; the server's readers decode and
 * let go.
 */
export function unpackValue(key: string, packed: PackedValue): KeyValue {
  const bytes = Buffer.from(packed.substring(headerBytes), 'latin1');
  const value = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    key,
    value,
    createRevision: readRevision(packed, revisionBytes),
    modRevision: readRevision(packed, 0),
  };
}

function writeRevision(buf: Buffer, at: number, revision: number): void {
  let n = revision;
  for (let i = 0; i < revisionBytes; i++) {
    buf[at + i] = n % 256;
    n = Math.floor(n / 256);
  }
}

function readRevision(packed: string, at: number): number {
  let n = 0;
  for (let i = revisionBytes - 1; i >= 0; i--) n = n * 256 + packed.charCodeAt(at + i);
  return n;
}
