/**
 * Truncated, corrupted and random Protobuf bodies must always end in a `WireDecodeError` (a
 * `CodecError` the server answers with 400), never another exception, a crash or a hang.
 */
import { kubernetesFlavor } from '@orchard/meta';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyByteEdits, byteEditsArb } from '../fuzz-edits.js';
import { isWireDecodeError } from './errors.js';
import { sampleCrd, samplePod } from './fixtures.js';
import {
  decodeProtobuf,
  decodeProtobufWatchEvent,
  encodeProtobuf,
  encodeProtobufWatchEvent,
  ProtobufFrameReader,
} from './protobuf.js';

const k8s = kubernetesFlavor;
const crd = sampleCrd({
  type: 'object',
  properties: { a: { type: 'array', items: [{ type: 'string' }], default: [1] } },
  additionalProperties: { type: 'string' },
  dependencies: { a: ['b'] },
});
const bodies = [
  encodeProtobuf(crd, k8s),
  encodeProtobuf(samplePod(1), k8s),
  encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } }, k8s),
  encodeProtobuf(
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'get' } },
    },
    k8s,
  ),
];

/** Decodes, and requires that the only possible failure is a typed WireDecodeError. */
function decodeOrTypedError(bytes: Uint8Array): void {
  try {
    decodeProtobuf(bytes, k8s);
  } catch (e) {
    if (!isWireDecodeError(e)) throw e;
  }
}

describe('Protobuf decode fuzzing', () => {
  it('every truncation of a valid body fails with a typed error', () => {
    for (const body of bodies) {
      for (let n = 0; n < body.length; n++) {
        let thrown: unknown;
        try {
          decodeProtobuf(body.subarray(0, n), k8s);
        } catch (e) {
          thrown = e;
        }
        // A cut between two complete fields can still be a valid (shorter) object; any other
        // cut must be reported as a typed error.
        if (thrown !== undefined) expect(isWireDecodeError(thrown)).toBe(true);
      }
    }
  });

  it('corrupted bodies (flipped, inserted and deleted bytes) never throw anything but WireDecodeError', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bodies), byteEditsArb, (body, edits) => {
        decodeOrTypedError(applyByteEdits(body, edits));
      }),
      { numRuns: 3000 },
    );
  });

  it('random bytes behind a valid prefix never throw anything but WireDecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (tail) => {
        decodeOrTypedError(new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...tail]));
      }),
      { numRuns: 3000 },
    );
  });

  it('deeply nested groups are rejected, not a stack overflow that escapes', () => {
    // Wire type 3 (start group) repeated: a naive skipper recurses once per byte.
    const nested = new Uint8Array(200_000).fill(0x0b);
    expect(() =>
      decodeProtobuf(new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...nested.subarray(0, 10)]), k8s),
    ).toThrow();
    decodeOrTypedError(new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x12, 0xff, 0xff, 0x0f, ...nested]));
  });

  it('corrupted watch frames fail with a typed error', () => {
    const frame = encodeProtobufWatchEvent({ type: 'ADDED', object: samplePod(0) }, k8s);
    fc.assert(
      fc.property(fc.nat({ max: frame.length - 5 }), fc.integer({ min: 0, max: 255 }), (pos, value) => {
        const copy = frame.slice(4);
        copy[pos] = value;
        try {
          decodeProtobufWatchEvent(copy, k8s);
        } catch (e) {
          if (!isWireDecodeError(e)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
    expect(() => new ProtobufFrameReader(1024).push(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toThrow(
      /exceeds/,
    );
  });
});
