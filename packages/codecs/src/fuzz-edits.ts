/**
 * What the codec fuzz tests share (not exported by the package): random edits of a valid body, as a
 * corrupted network read or a hostile client would send it.
 */
import fc from 'fast-check';

/** One edit: at a position (modulo the length), set, insert or delete a byte. */
export type ByteEdit = [position: number, value: number, op: 'set' | 'insert' | 'delete'];

/** One to eight edits. */
export const byteEditsArb: fc.Arbitrary<ByteEdit[]> = fc.array(
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'insert', 'delete')),
  { minLength: 1, maxLength: 8 },
);

/** `body` with the edits applied in order (a copy). */
export function applyByteEdits(body: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  const bytes = [...body];
  for (const [pos, value, op] of edits) {
    const at = pos % (bytes.length + 1);
    if (op === 'set' && at < bytes.length) bytes[at] = value;
    else if (op === 'insert') bytes.splice(at, 0, value);
    else if (op === 'delete' && at < bytes.length) bytes.splice(at, 1);
  }
  return Uint8Array.from(bytes);
}
