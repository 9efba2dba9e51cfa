/**
 * The few DER (ASN.1) shapes an X.509 certificate is built from, and a reader for the parts a CA
 * certificate is read back for (its subject and public key). Values are byte arrays; every length
 * is in its shortest form, as DER requires.
 */
/** One DER element: tag, length, contents. */
export function tlv(tag: number, ...contents: readonly Uint8Array[]): Buffer {
  const body = Buffer.concat(contents);
  const n = body.length;
  let len: number[];
  if (n < 0x80) len = [n];
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = [0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from([tag, ...len]), body]);
}

/** SEQUENCE of the elements. */
export const sequence = (...items: readonly Uint8Array[]): Buffer => tlv(0x30, ...items);
/** SET of the elements (one attribute per RDN here, so no sorting is needed). */
export const set = (...items: readonly Uint8Array[]): Buffer => tlv(0x31, ...items);
/** OCTET STRING. */
export const octets = (b: Uint8Array): Buffer => tlv(0x04, b);
/** BOOLEAN TRUE (FALSE is a default everywhere it is used here, so it is never encoded). */
export const booleanTrue = (): Buffer => Buffer.from([0x01, 0x01, 0xff]);
/** BIT STRING of whole bytes (no unused bits): keys and signatures. */
export const bitString = (b: Uint8Array): Buffer => tlv(0x03, Buffer.from([0]), b);
/** Context-specific `[n]` EXPLICIT (constructed) around one element. */
export const explicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);

/**
 * INTEGER from an unsigned big-endian magnitude, in the shortest two's-complement form (leading
 * zero bytes dropped, one added back when the high bit is set).
 */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  const m = magnitude.subarray(i);
  return tlv(0x02, (m[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), m]) : m);
}

/** OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const out: number[] = [40 * (arcs[0] ?? 0) + (arcs[1] ?? 0)];
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) groups.unshift(0x80 | (v & 0x7f));
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTF8String. */
export const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));

/**
 * A time as X.509 wants it: UTCTime (`YYMMDDHHMMSSZ`) through 2049, GeneralizedTime
 * (`YYYYMMDDHHMMSSZ`) from 2050 (RFC 5280 §4.1.2.5); whole seconds.
 */
export function x509Time(d: Date): Buffer {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return d.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii'))
    : tlv(0x18, Buffer.from(digits, 'ascii'));
}

/**
 * BIT STRING of named bits (bit 0 is the high bit of the first byte), trailing zero bits dropped
 * as DER requires for named bit lists (key usage).
 */
export function namedBits(bits: readonly number[]): Buffer {
  const last = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(last / 8) + 1);
  for (const b of bits) bytes[b >> 3] = (bytes[b >> 3] as number) | (0x80 >> (b & 7));
  return tlv(0x03, Buffer.from([7 - (last & 7)]), bytes);
}

const ipv4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The 16 bytes of an IPv6 address (`::`, an embedded IPv4 tail, a `%zone` ignored), or undefined. */
function ipv6Bytes(text: string): Buffer | undefined {
  let t = text.replace(/%[^%]+$/, '');
  const tail = /(?:^|:)((?:\d+\.){3}\d+)$/.exec(t);
  let v4: number[] = [];
  if (tail) {
    if (!ipv4.test(tail[1] as string)) return undefined;
    v4 = (tail[1] as string).split('.').map(Number);
    t = `${t.slice(0, t.length - (tail[1] as string).length)}0:0`;
  }
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const left = groups(halves[0] as string);
  const right = halves.length === 2 ? groups(halves[1] as string) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const out = Buffer.alloc(16);
  for (const [i, g] of all.entries()) out.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  if (v4.length === 4) out.set(v4, 12);
  return out;
}

/**
 * The loopback addresses every serving certificate names, known beforehand: a process's first start
 * compiles none of the expressions above for them (~1-2 ms on the loaded 2-core machine).
 */
const loopback: ReadonlyMap<string, readonly number[]> = new Map([
  ['127.0.0.1', [127, 0, 0, 1]],
  ['::1', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
]);

/**
 * 4 or 6 for an IP address, 0 otherwise: `net.isIP`'s answer without its IPv6 expression, whose
 * first use costs ~30 ms of regular expression compilation on a test server's first start.
 */
export function ipVersion(s: string): 0 | 4 | 6 {
  const known = loopback.get(s);
  if (known) return known.length === 4 ? 4 : 6;
  if (ipv4.test(s)) return 4;
  return s.includes(':') && ipv6Bytes(s) ? 6 : 0;
}

/** The 4 or 16 bytes of an IP address (IPv6 with `::` and an embedded IPv4 tail too). */
export function ipBytes(ip: string): Buffer {
  const known = loopback.get(ip);
  if (known) return Buffer.from(known);
  if (ipv4.test(ip)) return Buffer.from(ip.split('.').map(Number));
  const v6 = ip.includes(':') ? ipv6Bytes(ip) : undefined;
  if (!v6) throw new Error(`not an IP address: ${ip}`);
  return v6;
}

/** One element read back: its tag, where its contents are, and the whole encoding. */
export interface DerElement {
  readonly tag: number;
  readonly contents: Buffer;
  readonly whole: Buffer;
}

/** The element at `at` of `buf`; throws on a truncated or overlong encoding. */
export function readElement(buf: Buffer, at = 0): DerElement {
  const tag = buf[at];
  let len = buf[at + 1];
  if (tag === undefined || len === undefined) throw new Error('DER: truncated element');
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('DER: unsupported length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[start + i] ?? Number.NaN);
    start += n;
  }
  const end = start + len;
  if (!Number.isFinite(len) || end > buf.length) throw new Error('DER: truncated element');
  return { tag, contents: buf.subarray(start, end), whole: buf.subarray(at, end) };
}

/** The elements inside a constructed element's contents. */
export function children(contents: Buffer): DerElement[] {
  const out: DerElement[] = [];
  for (let at = 0; at < contents.length; ) {
    const e = readElement(contents, at);
    out.push(e);
    at += e.whole.length;
  }
  return out;
}
