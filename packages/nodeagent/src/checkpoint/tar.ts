/** One regular file of a tar archive. */
export interface TarEntry {
  /** Path inside the archive (at most 100 bytes: no long-name extension is written). */
  readonly name: string;
  readonly data: Uint8Array | string;
  /** Permission bits. Default 0o600. */
  readonly mode?: number;
}

const block = 512;

function field(buf: Buffer, offset: number, length: number, value: string): void {
  buf.write(value, offset, length, 'ascii');
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/**
 * A POSIX ustar archive of regular files (what the fake CRI runtime writes as a checkpoint, and
 * what `tar -tf` lists). Names longer than 100 bytes are refused rather than truncated.
 */
export function tarArchive(entries: readonly TarEntry[], mtime = new Date()): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    if (name.length === 0 || name.length > 100)
      throw new Error(`tar: entry name ${JSON.stringify(e.name)} must be 1-100 bytes`);
    const data = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : Buffer.from(e.data);
    const header = Buffer.alloc(block);
    name.copy(header, 0);
    field(header, 100, 8, octal(e.mode ?? 0o600, 8));
    field(header, 108, 8, octal(0, 8));
    field(header, 116, 8, octal(0, 8));
    field(header, 124, 12, octal(data.length, 12));
    field(header, 136, 12, octal(Math.floor(mtime.getTime() / 1000), 12));
    header.fill(0x20, 148, 156);
    field(header, 156, 1, '0');
    field(header, 257, 6, 'ustar\0');
    field(header, 263, 2, '00');
    field(header, 265, 32, 'root');
    field(header, 297, 32, 'root');
    let sum = 0;
    for (const b of header) sum += b;
    field(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    parts.push(header, data, Buffer.alloc((block - (data.length % block)) % block));
  }
  parts.push(Buffer.alloc(2 * block));
  return Buffer.concat(parts);
}

/** The names and sizes of a ustar archive's entries (a reader for tests and checks). */
export function tarEntries(archive: Uint8Array): { name: string; size: number }[] {
  const buf = Buffer.from(archive);
  const out: { name: string; size: number }[] = [];
  let at = 0;
  while (at + block <= buf.length) {
    const header = buf.subarray(at, at + block);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = Number.parseInt(header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, ''), 8);
    if (!Number.isFinite(size)) throw new Error(`tar: bad size in the header at ${at}`);
    out.push({ name, size });
    at += block + Math.ceil(size / block) * block;
  }
  return out;
}
