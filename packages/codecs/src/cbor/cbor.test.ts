import { describe, expect, it } from 'vitest';
import { isWireDecodeError } from '../protobuf/errors.js';
import { samplePod, samplePodList } from '../protobuf/fixtures.js';
import { CborSeqReader, decodeCbor, encodeCbor, encodeCborWatchEvent } from './cbor.js';
import { createCborCodec } from './cbor-codec.js';

const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => Number.parseInt(h, 16));

function reasonOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isWireDecodeError(e) ? e.reason : `untyped: ${String(e)}`;
  }
  return undefined;
}

describe('CBOR bodies', () => {
  it('start with the self-described tag and hold one data item', () => {
    const body = encodeCbor({ a: 1 });
    expect([...body]).toEqual([0xd9, 0xd9, 0xf7, 0xa1, 0x61, 0x61, 0x01]);
  });

  it.each([
    ['a Pod', samplePod(2)],
    ['a PodList', samplePodList(3)],
    [
      'a custom resource',
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        spec: { size: 1.5, tags: ['a'], on: false, none: null, big: 2 ** 40, neg: -7 },
      },
    ],
    ['unicode text', { s: 'ünïcødé ✓ 😀', empty: '' }],
  ])('round-trips %s', (_, value) => {
    expect(decodeCbor(encodeCbor(value))).toEqual(value);
  });

  it('keeps a __proto__ key as an own property, as JSON.parse does', () => {
    const value = JSON.parse('{"__proto__":{"x":1},"a":[{"__proto__":2}]}');
    const decoded = decodeCbor(encodeCbor(value)) as Record<string, unknown>;
    expect(JSON.stringify(decoded)).toBe('{"__proto__":{"x":1},"a":[{"__proto__":2}]}');
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
  });

  it('drops undefined members like JSON and refuses values JSON cannot hold', () => {
    expect(decodeCbor(encodeCbor({ a: 1, b: undefined, c: [undefined, 2] }))).toEqual({ a: 1, c: [null, 2] });
    expect(() => encodeCbor({ n: Number.NaN })).toThrow(expect.objectContaining({ code: 'NotEncodable' }));
    expect(() => encodeCbor({ f: () => 1 })).toThrow(expect.objectContaining({ code: 'NotEncodable' }));
  });

  it('accepts a body without the tag unless the tag is required', () => {
    expect(decodeCbor(hex('a1616101'))).toEqual({ a: 1 });
    expect(reasonOf(() => decodeCbor(hex('a1616101'), { requireSelfDescribedTag: true }))).toBe('BadPrefix');
  });

  it('decodes byte strings to base64 text (the JSON form of []byte) and indefinite lengths', () => {
    expect(decodeCbor(hex('a1616143010203'))).toEqual({ a: 'AQID' });
    expect(decodeCbor(hex('bf61619f0102ff63616263f5ff'))).toEqual({ a: [1, 2], abc: true });
  });

  it.each([
    ['empty body', '', 'Truncated'],
    ['truncated map', 'a26161', 'Truncated'],
    ['truncated text', '6461', 'Truncated'],
    ['huge array claim', '9bffffffffffffffff', 'Truncated'],
    ['trailing bytes', 'a161610101', 'Malformed'],
    ['two items', 'f6f6', 'Malformed'],
    ['duplicate key', 'a2616101616102', 'Malformed'],
    ['integer key', 'a10101', 'Malformed'],
    ['undefined', 'f7', 'Malformed'],
    ['NaN', 'f97e00', 'Malformed'],
    ['Infinity', 'fb7ff0000000000000', 'Malformed'],
    ['invalid UTF-8', '62c328', 'Malformed'],
    ['unsupported tag', 'c11a514b67b0', 'Malformed'],
    ['reserved info', '1c', 'Malformed'],
    ['lone break', 'ff', 'Malformed'],
    ['simple value', 'f0', 'Malformed'],
    ['indefinite integer', '1f', 'Malformed'],
    ['indefinite string', '7f6161ff', 'Malformed'],
  ])('rejects %s with a typed error', (_, body, reason) => {
    expect(reasonOf(() => decodeCbor(hex(body)))).toBe(reason);
  });

  it('rejects nesting deeper than the limit', () => {
    const deep = new Uint8Array(2000).fill(0x81);
    expect(reasonOf(() => decodeCbor(new Uint8Array([...deep, 0xf6])))).toBe('Malformed');
    expect(decodeCbor(new Uint8Array([...deep.subarray(0, 500), 0xf6]))).toBeDefined();
  });
});

describe('CBOR watch streams (application/cbor-seq)', () => {
  it('one item per event, split back across arbitrary chunks', () => {
    const events = [
      { type: 'ADDED', object: samplePod(0) },
      { type: 'MODIFIED', object: samplePod(1) },
      { type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '9' } } },
    ];
    const stream = new Uint8Array(events.flatMap((e) => [...encodeCborWatchEvent(e)]));
    const reader = new CborSeqReader();
    const got: unknown[] = [];
    for (let i = 0; i < stream.length; i += 13) got.push(...reader.push(stream.subarray(i, i + 13)));
    expect(got).toEqual(events);
    expect(reader.pending).toBe(0);
    expect(() => new CborSeqReader().push(hex('a2616101616102'))).toThrow(/duplicate/);
  });

  it('the Codec streams cbor-seq and rejects malformed bodies', () => {
    const codec = createCborCodec();
    expect(codec.stream?.mediaType).toBe('application/cbor-seq');
    expect(codec.binary).toBe(true);
    expect(() => codec.decode(hex('a26161'), {} as never)).toThrow(
      expect.objectContaining({ code: 'Malformed' }),
    );
  });
});
