/** What the watch-cache tests share (not exported by the package): JSON objects in a memory store. */
import type { ApiObject } from '@orchard/meta';
import type { KeyValue } from '@orchard/store';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Decodes a stored JSON object as the server does: resourceVersion = the key's modRevision. */
export function decode(kv: KeyValue): ApiObject {
  const o = JSON.parse(dec.decode(kv.value)) as ApiObject;
  o.metadata = { ...o.metadata, resourceVersion: String(kv.modRevision) };
  return o;
}

/** The stored bytes of a JSON object. */
export const encodeJson = (o: unknown): Uint8Array => enc.encode(JSON.stringify(o));
