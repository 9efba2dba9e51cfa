import { compile, createEnv, isCelError } from '@orchard/cel';
import { isCodecError, jsonCodec, parseYaml } from '@orchard/codecs';
import { decodeCbor } from '@orchard/codecs/cbor';
import { decodeProtobuf, encodeProtobuf } from '@orchard/codecs/protobuf';
import {
  isApiError,
  kubernetesFlavor,
  parseFieldSelector,
  parseLabelSelector,
  parseQuantity,
  QuantityError,
} from '@orchard/meta';
import { createContinueCodec, isPagerError } from '@orchard/pager';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, isPatchError } from '@orchard/patch';
import { builtinSchema } from '@orchard/schema';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { assertPrototypeClean, fuzzParams, hostileKeys, reportFuzzRuns } from './fuzz-settings.js';

/**
 * Every parser and patch of the libraries under arbitrary input: each either returns or throws its
 * package's typed error (never a TypeError, RangeError or an engine message), and none writes onto
 * Object.prototype. Seeds are printed; see fuzz-settings.ts to replay one.
 */

const key = fc.oneof(fc.constantFrom(...hostileKeys), fc.string({ maxLength: 8 }));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 12 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
})).value;
const jsonObject = fc.dictionary(key, json, { maxKeys: 6 });
/** Text with the characters each grammar cares about. */
const text = (alphabet: string) =>
  fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.array(fc.constantFrom(...alphabet.split('')), { maxLength: 60 }).map((a) => a.join('')),
  );

function typed(run: () => unknown, isExpected: (e: unknown) => boolean): void {
  try {
    run();
  } catch (e) {
    if (!isExpected(e)) throw e;
    const message = (e as Error).message;
    if (/Maximum call stack|Cannot read properties|is not a function|undefined is not/.test(message))
      throw new Error(`engine message leaked: ${message}`);
  }
  assertPrototypeClean();
}

describe('fuzz: decoders', () => {
  afterAll(() => reportFuzzRuns('decoders'));
  const enc = new TextEncoder();

  it('JSON decode', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          text('{}[]":,0123456789.eE+-\\ntrufalse'),
          json.map((v) => JSON.stringify(v)),
        ),
        (s) =>
          typed(
            () => jsonCodec.decode(enc.encode(s), { flavor: kubernetesFlavor }),
            (e) => isCodecError(e),
          ),
      ),
      fuzzParams('json', 2000),
    );
  });

  it('YAML decode', () => {
    fc.assert(
      fc.property(text('{}[]:- ,&*!|>\'"#?\n  ab1'), (s) =>
        typed(
          () => parseYaml(s),
          (e) => isCodecError(e),
        ),
      ),
      fuzzParams('yaml', 2000),
    );
  });

  it('CBOR decode', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) =>
        typed(
          () => decodeCbor(bytes),
          (e) => isCodecError(e),
        ),
      ),
      fuzzParams('cbor', 2000),
    );
  });

  it('Protobuf decode of corrupted real bodies', () => {
    const good = encodeProtobuf(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' } }, data: { k: 'v' } },
      kubernetesFlavor,
    );
    fc.assert(
      fc.property(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 }), fc.nat(8), (at, byte, cut) => {
        const bytes = good.slice(0, good.length - cut);
        if (at < bytes.length) bytes[at] = byte;
        typed(
          () => decodeProtobuf(bytes, kubernetesFlavor),
          (e) => isCodecError(e),
        );
      }),
      fuzzParams('protobuf', 2000),
    );
  });
});

describe('fuzz: patches', () => {
  const podSchema = builtinSchema(kubernetesFlavor, '', 'v1', 'Pod');
  afterAll(() => reportFuzzRuns('patches'));

  it('merge patch', () => {
    fc.assert(
      fc.property(jsonObject, json, (doc, patch) => typed(() => applyMergePatch(doc, patch), isPatchError)),
      fuzzParams('merge-patch', 1500),
    );
  });

  it('strategic merge patch (with the Pod schema)', () => {
    fc.assert(
      fc.property(jsonObject, json, (doc, patch) =>
        typed(() => applyStrategicMergePatch(doc, patch, podSchema), isPatchError),
      ),
      fuzzParams('strategic-merge-patch', 1500),
    );
  });

  it('JSON patch', () => {
    const pointer = fc.array(key, { maxLength: 4 }).map((segs) => `/${segs.join('/')}`);
    const op = fc.record({
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
      path: pointer,
      from: pointer,
      value: json,
    });
    fc.assert(
      fc.property(jsonObject, fc.array(op, { maxLength: 4 }), (doc, ops) =>
        typed(() => applyJsonPatch(doc, ops), isPatchError),
      ),
      fuzzParams('json-patch', 1500),
    );
  });
});

describe('fuzz: small grammars', () => {
  afterAll(() => reportFuzzRuns('grammars'));

  it('label selectors', () => {
    fc.assert(
      fc.property(text('abc=!,() in notin exists!=/.-_1'), (s) =>
        typed(() => parseLabelSelector(s), isApiError),
      ),
      fuzzParams('label-selector', 2000),
    );
  });

  it('field selectors', () => {
    fc.assert(
      fc.property(text('metadata.name=!,\\ab'), (s) => typed(() => parseFieldSelector(s), isApiError)),
      fuzzParams('field-selector', 2000),
    );
  });

  it('Quantity', () => {
    fc.assert(
      fc.property(text('0123456789.+-eEkKMGTPimun '), (s) =>
        typed(
          () => parseQuantity(s),
          (e) => e instanceof QuantityError,
        ),
      ),
      fuzzParams('quantity', 2000),
    );
  });

  it('continue tokens (forged, truncated, re-signed)', async () => {
    const codec = createContinueCodec({ key: new Uint8Array(32).fill(7) });
    const real = await codec.encode({ revision: 5, startKey: '/core/configmaps/a' });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          text('abcXYZ019-_.='),
          fc.nat(real.length).map((n) => real.slice(0, n) + real.slice(n + 1)),
        ),
        async (token) => {
          try {
            await codec.decode(token);
          } catch (e) {
            if (!isPagerError(e)) throw e;
          }
          assertPrototypeClean();
        },
      ),
      fuzzParams('continue-token', 1500),
    );
  });

  it('CEL under a cost budget: compile or a CelError, evaluation within budget or a CelError', () => {
    const env = createEnv();
    const atom = fc.constantFrom(
      '1',
      '2.5',
      '"s"',
      'true',
      'null',
      '[1,2,3]',
      '{"a": 1}',
      "'x'",
      'b"by"',
      'size("abc")',
    );
    const expr = fc.letrec((tie) => ({
      e: fc.oneof(
        { depthSize: 'small' },
        atom,
        fc
          .tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%', '==', '<', '&&', '||', 'in'), tie('e'))
          .map(([a, op, b]) => `(${a} ${op} ${b})`),
        tie('e').map((a) => `[${a}, ${a}].map(x, [x, x, x])`),
        tie('e').map((a) => `string(${a})`),
        fc.string({ maxLength: 10 }),
      ),
    })).e;
    fc.assert(
      fc.property(expr, (source) =>
        typed(() => compile(source, env).evaluate({}, { costBudget: 10_000 }), isCelError),
      ),
      fuzzParams('cel', 1500),
    );
  });
});
