/**
 * Continue tokens and read planning: encode + decode of a signed token (HMAC-SHA-256, node:crypto)
 * against the unsigned base64 JSON token upstream uses (the baseline, same run), and
 * `planList` over the §4.5 table.
 *
 *   npx tsx packages/pager/bench/pager.bench.ts
 */
import { bench, do_not_optimize, run, summary } from 'mitata';
import { createContinueCodec, planList } from '../src/index.js';

const codec = createContinueCodec();
const position = { revision: 123_456, startKey: '/core/configmaps/default/cm-04999\u0000' };
const token = await codec.encode(position);

function upstreamEncode(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64');
}
function upstreamDecode(t: string): { rv: number; start: string } {
  return JSON.parse(Buffer.from(t, 'base64').toString('utf8')) as { rv: number; start: string };
}
const upstreamToken = upstreamEncode(position.revision, position.startKey);
if ((await codec.decode(token)).revision !== upstreamDecode(upstreamToken).rv)
  throw new Error('tokens disagree');

summary(() => {
  bench('baseline: unsigned base64 JSON token, encode + decode', () =>
    do_not_optimize(upstreamDecode(upstreamEncode(position.revision, position.startKey))),
  );
  bench('signed continue token (HMAC-SHA-256), encode + decode', async () =>
    do_not_optimize(await codec.decode(await codec.encode(position))),
  );
  bench('signed continue token, decode only', async () => do_not_optimize(await codec.decode(token)));
});

const cells = [
  {},
  { resourceVersion: '0' },
  { resourceVersion: '42' },
  { limit: 500, resourceVersion: '42' },
  { limit: 500, continue: token },
  { resourceVersionMatch: 'NotOlderThan', resourceVersion: '42' },
];
bench('planList over 6 table cells', () => {
  for (const c of cells) do_not_optimize(planList(c));
});

await run();
