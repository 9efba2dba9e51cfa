/**
 * Standard base64 (RFC 4648 §4) over bytes, without Node's Buffer so the pure packages can use it:
 * the JSON form of `[]byte` fields (Secret data, Protobuf bytes, CBOR byte strings) and of
 * continue tokens (as base64url). Linear, and safe for values of any size (no argument spreading).
 */

const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64Index = new Int16Array(128).fill(-1);
for (let i = 0; i < b64.length; i++) b64Index[b64.charCodeAt(i)] = i;

/** Standard base64 with padding, the JSON form of `[]byte` fields. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += b64[(n >> 18) & 63]! + b64[(n >> 12) & 63]! + b64[(n >> 6) & 63]! + b64[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] as number) << 16;
    out += `${b64[(n >> 18) & 63]!}${b64[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out += `${b64[(n >> 18) & 63]!}${b64[(n >> 12) & 63]!}${b64[(n >> 6) & 63]!}=`;
  }
  return out;
}

/** Decodes standard base64 (padding optional, as Go's decoder for `[]byte` accepts); undefined when invalid. */
export function fromBase64(s: string): Uint8Array | undefined {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 61 /* = */) end--;
  if (s.length - end > 2) return undefined;
  if (end % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? (b64Index[c] as number) : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** base64url without padding (RFC 4648 §5), as continue tokens use it. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url (padding optional); undefined when invalid. */
export function fromBase64Url(s: string): Uint8Array | undefined {
  if (/[+/]/.test(s)) return undefined;
  return fromBase64(s.replace(/-/g, '+').replace(/_/g, '/'));
}
