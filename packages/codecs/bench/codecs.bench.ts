/**
 * Encode and decode a 100-item PodList (realistic pods: managedFields, probes, volumes, status)
 * in JSON (baseline: JSON.stringify/parse + UTF-8), Protobuf and CBOR. Prints body sizes, then
 * mitata's timings, then ops/s and the ratio to JSON of the same direction.
 *
 *   npx tsx packages/codecs/bench/codecs.bench.ts
 */
import { kubernetesFlavor } from '@orchard/meta';
import { bench, do_not_optimize, run, summary } from 'mitata';
import { decodeCbor, encodeCbor } from '../src/cbor/index.js';
import { samplePodList } from '../src/protobuf/fixtures.js';
import { decodeProtobuf, encodeProtobuf } from '../src/protobuf/index.js';

const flavor = kubernetesFlavor;
const list = samplePodList(100);
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

const jsonBytes = utf8.encode(JSON.stringify(list));
const pbBytes = encodeProtobuf(list, flavor);
const cborBytes = encodeCbor(list);

// Every codec must give back the same list, or the figures would compare unlike work
// (Protobuf returns fields in message order, so compare with sorted keys).
const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
const canonical = JSON.stringify(sorted(list));
for (const [name, back] of [
  ['json', JSON.parse(fromUtf8.decode(jsonBytes))],
  ['protobuf', decodeProtobuf(pbBytes, flavor)],
  ['cbor', decodeCbor(cborBytes)],
] as const) {
  if (JSON.stringify(sorted(back)) !== canonical) throw new Error(`${name} does not round-trip the PodList`);
}

const sizes = { json: jsonBytes.length, protobuf: pbBytes.length, cbor: cborBytes.length };
console.log('PodList of 100 pods, body bytes:');
for (const [k, v] of Object.entries(sizes))
  console.log(`  ${k.padEnd(9)} ${String(v).padStart(8)}  (${(v / sizes.json).toFixed(2)}× JSON)`);

summary(() => {
  bench('encode json (baseline)', () => do_not_optimize(utf8.encode(JSON.stringify(list)))).baseline(true);
  bench('encode protobuf', () => do_not_optimize(encodeProtobuf(list, flavor)));
  bench('encode cbor', () => do_not_optimize(encodeCbor(list)));
});
summary(() => {
  bench('decode json (baseline)', () => do_not_optimize(JSON.parse(fromUtf8.decode(jsonBytes)))).baseline(
    true,
  );
  bench('decode protobuf', () => do_not_optimize(decodeProtobuf(pbBytes, flavor)));
  bench('decode cbor', () => do_not_optimize(decodeCbor(cborBytes)));
});

const { benchmarks } = await run();
const avg = new Map(benchmarks.map((b) => [b.alias, b.runs[0]?.stats?.avg ?? Number.NaN]));
console.log('\nops/s (ratio to JSON, same direction):');
for (const dir of ['encode', 'decode']) {
  const base = avg.get(`${dir} json (baseline)`) as number;
  for (const codec of ['json (baseline)', 'protobuf', 'cbor']) {
    const ns = avg.get(`${dir} ${codec}`) as number;
    console.log(
      `  ${`${dir} ${codec}`.padEnd(24)} ${Math.round(1e9 / ns)
        .toString()
        .padStart(7)} ops/s  ${(base / ns).toFixed(2)}× JSON speed`,
    );
  }
}
