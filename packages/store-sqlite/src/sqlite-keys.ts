/** A Store key as a UTF-16BE blob, so SQLite's byte order equals JavaScript's code-unit order. */
export function encodeKey(key: string): Buffer {
  return Buffer.from(key, 'utf16le').swap16();
}

/** The Store key of a UTF-16BE key blob. */
export function decodeKey(blob: Buffer): string {
  return Buffer.from(blob).swap16().toString('utf16le');
}

/** The smallest blob greater than every blob starting with `prefix`, or undefined when none exists. */
export function prefixEnd(prefix: Buffer): Buffer | undefined {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++;
      return end.subarray(0, i + 1);
    }
  }
  return undefined;
}

/** A Buffer view of the same bytes (no copy). */
export function toBuffer(value: Uint8Array): Buffer {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
