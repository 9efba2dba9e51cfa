/**
 * Truncated, corrupted and random CBOR bodies must end in a `WireDecodeError` (400 at the
 * server), never another exception, a crash or a hang; arbitrary JSON values round-trip.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyByteEdits, byteEditsArb } from '../fuzz-edits.js';
import { isWireDecodeError } from '../protobuf/errors.js';
import { samplePod } from '../protobuf/fixtures.js';
import { CborSeqReader, decodeCbor, encodeCbor } from './cbor.js';

function decodeOrTypedError(bytes: Uint8Array): void {
  try {
    decodeCbor(bytes);
  } catch (e) {
    if (!isWireDecodeError(e)) throw e;
  }
}

const body = encodeCbor(samplePod(4));

describe('CBOR decode fuzzing', () => {
  it('every strict prefix of a valid body is Truncated', () => {
    for (let n = 0; n < body.length; n++) {
      let reason: string | undefined;
      try {
        decodeCbor(body.subarray(0, n));
      } catch (e) {
        reason = isWireDecodeError(e) ? e.reason : 'untyped';
      }
      expect(reason).toBe('Truncated');
    }
  });

  it('corrupted bodies never throw anything but WireDecodeError', () => {
    fc.assert(
      fc.property(byteEditsArb, (edits) => {
        decodeOrTypedError(applyByteEdits(body, edits));
      }),
      { numRuns: 3000 },
    );
  });

  it('random bytes never throw anything but WireDecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => decodeOrTypedError(bytes)),
      { numRuns: 5000 },
    );
  });

  it('random bytes fed to the cbor-seq reader never throw anything but WireDecodeError', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), (chunks) => {
        const reader = new CborSeqReader(1024);
        try {
          for (const c of chunks) reader.push(c);
        } catch (e) {
          if (!isWireDecodeError(e)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('any JSON value round-trips', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON itself cannot tell -0 from 0; compare through JSON text.
        expect(JSON.stringify(decodeCbor(encodeCbor(value)))).toBe(JSON.stringify(value));
      }),
      { numRuns: 1000 },
    );
  });
});
